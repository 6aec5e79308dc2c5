/**
 * The arrows of the layer table (docs/architecture.md), enforced: each folder of src/ imports only the layers below
 * it (types included), the pure layers import no Node built-in, no UI and no Office, and no file
 * takes part in an import cycle. A new arrow is a design decision: change docs/architecture.md and this table.
 */
import { describe, expect, it } from 'vitest';
import { cycles, importGraph, layerOf, type ImportEdge } from './imports';

/** Which layers each layer may import (besides itself). */
export const ARROWS: Record<string, readonly string[]> = {
  workbench: ['taskpane', 'excel', 'fill', 'api', 'xlsx'],
  taskpane: ['excel', 'fill', 'api'],
  excel: ['fill', 'api'],
  fill: ['api', 'xlsx'],
  api: [],
  xlsx: [],
  service: ['fill', 'api', 'xlsx'],
  cli: ['service', 'fill', 'api', 'xlsx'],
  commands: [],
  static: [],
};

/**
 * Packages only some layers may use: the UI library, servers; and ExcelJS in none (every .xlsx is read and
 * written through src/xlsx; the bench and tests keep ExcelJS as the peer to compare with).
 */
const PACKAGES_ONLY_FOR: Record<string, readonly string[]> = {
  preact: ['taskpane', 'workbench'],
  exceljs: [],
  fastify: ['service'],
  '@fastify/': ['service'],
  'better-sqlite3': ['service'],
  pg: ['service'],
};

/** Layers that run in the browser as well as in Node: no Node built-ins. */
const BROWSER_SAFE = ['fill', 'api', 'excel', 'taskpane'];

export function violations(edges: readonly ImportEdge[]): string[] {
  const out: string[] = [];
  for (const e of edges) {
    const from = layerOf(e.from);
    if (!(from in ARROWS)) {
      out.push(`${e.from}: src/${from} is not a layer of DESIGN.md (add it to ARROWS with its arrows)`);
      continue;
    }
    if (e.external) {
      if (BROWSER_SAFE.includes(from) && (e.to.startsWith('node:') || ['fs', 'path', 'zlib', 'crypto', 'os'].includes(e.to))) {
        out.push(`${e.from} imports ${e.to}: src/${from} also runs in the browser`);
      }
      for (const [pkg, layers] of Object.entries(PACKAGES_ONLY_FOR)) {
        const hit = pkg.endsWith('/') ? e.to.startsWith(pkg) : e.to === pkg || e.to.startsWith(`${pkg}/`);
        if (hit && !layers.includes(from)) out.push(`${e.from} imports ${e.to}: ${layers.length ? `only ${layers.join(', ')} may` : 'no layer of src/ may'}`);
      }
      continue;
    }
    const to = layerOf(e.to);
    if (to !== from && !ARROWS[from]!.includes(to)) out.push(`${e.from} imports ${e.to}: src/${from} may import only ${ARROWS[from]!.join(', ') || 'itself'}`);
  }
  return out;
}

describe('layers', () => {
  const edges = importGraph();

  it('reads the real graph (a sanity check that the reader sees imports)', () => {
    expect(edges.length).toBeGreaterThan(300);
    expect(edges).toContainEqual({ from: 'fill/plan.ts', to: 'fill/answer.ts', external: false, typeOnly: false });
    expect(edges.some((e) => e.from === 'excel/types.ts' && e.to === 'fill/types.ts' && e.typeOnly)).toBe(true);
  });

  it('every import follows the arrows of DESIGN.md', () => {
    expect(violations(edges)).toEqual([]);
  });

  it('no import cycle', () => {
    expect(cycles(edges)).toEqual([]);
  });

  it('fails on an import against the arrows, a Node built-in in a browser layer, a UI package in the service, and a cycle', () => {
    const edge = (from: string, to: string, external = false): ImportEdge => ({ from, to, external, typeOnly: false });
    expect(violations([edge('fill/plan.ts', 'excel/types.ts')])).toEqual(['fill/plan.ts imports excel/types.ts: src/fill may import only api, xlsx']);
    expect(violations([edge('xlsx/package.ts', 'fill/types.ts')])).toHaveLength(1);
    expect(violations([edge('service/app.ts', 'taskpane/app.tsx')])).toHaveLength(1);
    expect(violations([edge('api/client.ts', 'node:fs', true)])).toHaveLength(1);
    expect(violations([edge('service/app.ts', 'preact', true)])).toHaveLength(1);
    expect(violations([edge('workbench/index.tsx', 'exceljs', true)])).toEqual(['workbench/index.tsx imports exceljs: no layer of src/ may']);
    expect(violations([edge('newlayer/x.ts', 'api/schemas.ts')])).toHaveLength(1);
    expect(violations([{ ...edge('excel/types.ts', 'fill/types.ts'), typeOnly: true }])).toEqual([]);
    expect(cycles([edge('a/x.ts', 'a/y.ts'), edge('a/y.ts', 'a/z.ts'), edge('a/z.ts', 'a/x.ts'), edge('a/z.ts', 'a/w.ts')])).toEqual([
      ['a/x.ts', 'a/y.ts', 'a/z.ts'],
    ]);
    expect(cycles([edge('a/x.ts', 'a/y.ts'), { ...edge('a/y.ts', 'a/x.ts'), typeOnly: true }])).toEqual([]);
  });
});
