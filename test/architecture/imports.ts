/**
 * The import graph of src/: every file's relative imports resolved to files, and the layer (top folder
 * under src/) of each. Read with TypeScript's own pre-processor, so comments and strings never count.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export const SRC = resolve(import.meta.dirname, '../../src');

export interface ImportEdge {
  from: string; // path relative to src/, e.g. fill/plan.ts
  to: string; // a resolved src file, or the bare specifier of a package / node: module
  external: boolean;
  /** `import type` / `export type`: erased at run time, but still a dependency a reader follows. */
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function resolveRelative(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier.replace(/\.js$/, ''));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** Every `import`, `export … from` and `import()` of one file, with whether it is type-only. */
function specifiers(path: string): { specifier: string; typeOnly: boolean }[] {
  const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, false, path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: { specifier: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : null;
      const typeOnly = !!clause && (clause.isTypeOnly || (!clause.name && !!named && named.length > 0 && named.every((e) => e.isTypeOnly)));
      out.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : null;
      out.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly || (!!named && named.length > 0 && named.every((e) => e.isTypeOnly)) });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      out.push({ specifier: node.arguments[0].text, typeOnly: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      out.push({ specifier: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

/** The imports of files under `root` (default src/). */
export function importGraph(root = SRC): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of sourceFiles(root)) {
    const from = relative(SRC, file);
    for (const { specifier, typeOnly } of specifiers(file)) {
      if (specifier.startsWith('.')) {
        const target = resolveRelative(file, specifier);
        if (!target) throw new Error(`${from} imports "${specifier}", which resolves to no file`);
        edges.push({ from, to: relative(SRC, target), external: false, typeOnly });
      } else edges.push({ from, to: specifier, external: true, typeOnly });
    }
  }
  return edges;
}

export function layerOf(srcPath: string): string {
  return srcPath.split(/[\\/]/)[0]!;
}

/**
 * Strongly connected groups of more than one file (or a file importing itself) over the imports that
 * run (type-only imports are erased and cannot change the order modules load in): the import cycles.
 */
export function cycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    if (e.external || e.typeOnly) continue;
    if (!next.has(e.from)) next.set(e.from, []);
    next.get(e.from)!.push(e.to);
  }
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
    }
    if (low.get(v) === indexOf.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || (next.get(v) ?? []).includes(v)) out.push(group.sort());
    }
  };
  for (const v of next.keys()) if (!indexOf.has(v)) visit(v);
  return out;
}
