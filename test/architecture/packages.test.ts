/**
 * package.json says what the product needs at run time: every runtime dependency is imported by src/ or bin/,
 * and everything src/ imports at run time is a runtime dependency (benches' and tests' libraries are dev
 * dependencies, so `npm ci --omit=dev` installs a service that starts).
 */
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph } from './imports';

const ROOT = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** The package a bare specifier names: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

const isBuiltin = (specifier: string) => specifier.startsWith('node:') || builtinModules.includes(packageOf(specifier));

function runtimeImports(): Set<string> {
  const used = new Set<string>();
  for (const edge of importGraph()) if (edge.external && !edge.typeOnly && !isBuiltin(edge.to)) used.add(packageOf(edge.to));
  for (const m of readFileSync(join(ROOT, 'bin', 'qfill.js'), 'utf8').matchAll(/from '([^'.][^']*)'/g)) used.add(packageOf(m[1]!));
  return used;
}

describe('package.json', () => {
  const runtime = { ...pkg.dependencies, ...pkg.optionalDependencies };

  it('lists every package src/ and bin/ import at run time among the runtime dependencies', () => {
    expect([...runtimeImports()].filter((name) => !(name in runtime)).sort()).toEqual([]);
  });

  it('has no runtime dependency that src/ and bin/ never import (benches and tests use dev dependencies)', () => {
    const used = runtimeImports();
    expect(
      Object.keys(pkg.dependencies)
        .filter((name) => !used.has(name))
        .sort(),
    ).toEqual([]);
  });
});
