/**
 * The storage boundary, enforced: no synchronous method on it, and no
 * SQLite (better-sqlite3, or a module of storage/sqlite/) reachable from outside src/service/storage/sqlite
 * except through its one door, sqlite/open.ts, whose exports speak only the boundary's types. The same
 * for PostgreSQL's `pg` and storage/postgres/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { importGraph, SRC, type ImportEdge } from './imports';

const STORAGE = join(SRC, 'service', 'storage');

/** Backend folders, their package, and the only modules of theirs the rest of the service may import. */
const BACKENDS = [
  { folder: 'service/storage/sqlite/', pkg: 'better-sqlite3', door: 'service/storage/sqlite/open.ts' },
  { folder: 'service/storage/postgres/', pkg: 'pg', door: 'service/storage/postgres/open.ts' },
] as const;

/** The importers allowed through a backend's door: the storage boundary's own files. */
const DOOR_KEEPERS = ['service/storage/open.ts', 'service/storage/migrate.ts'];

export function backendLeaks(edges: readonly ImportEdge[]): string[] {
  const out: string[] = [];
  for (const e of edges) {
    for (const b of BACKENDS) {
      if (e.from.startsWith(b.folder)) continue;
      if (e.external && (e.to === b.pkg || e.to.startsWith(`${b.pkg}/`))) out.push(`${e.from} imports ${e.to}: only ${b.folder} may`);
      if (!e.external && e.to.startsWith(b.folder)) {
        if (e.to !== b.door) out.push(`${e.from} imports ${e.to}: outside ${b.folder}, import only its door ${b.door}`);
        else if (!DOOR_KEEPERS.includes(e.from)) out.push(`${e.from} imports ${e.to}: only ${DOOR_KEEPERS.join(' and ')} open a backend`);
      }
    }
  }
  return out;
}

/** Methods and function-valued properties of the interfaces and type literals in `source` that return no Promise. */
export function synchronousMethods(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const returnsPromise = (type: ts.TypeNode | undefined): boolean =>
    !!type && ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && type.typeName.text === 'Promise';
  const check = (owner: string, member: ts.TypeElement) => {
    const name = member.name && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name)) ? member.name.text : '?';
    let returned: ts.TypeNode | undefined;
    if (ts.isMethodSignature(member)) returned = member.type;
    else if (ts.isPropertySignature(member) && member.type && ts.isFunctionTypeNode(member.type)) returned = member.type.type;
    else return;
    if (!returnsPromise(returned)) out.push(`${fileName}: ${owner}.${name} returns ${returned?.getText(file) ?? 'an inferred type'}, not a Promise`);
  };
  const visit = (node: ts.Node, owner: string) => {
    // An options object's callbacks (`log`) are the caller's code, not methods of the boundary.
    if (ts.isInterfaceDeclaration(node) && node.name.text.endsWith('Options')) return;
    if (ts.isInterfaceDeclaration(node)) {
      for (const m of node.members) check(node.name.text, m);
      node.members.forEach((m) => visit(m, node.name.text));
      return;
    }
    if (ts.isTypeLiteralNode(node)) {
      for (const m of node.members) check(`${owner} (literal)`, m);
    }
    const name = ts.isTypeAliasDeclaration(node) ? node.name.text : owner;
    ts.forEachChild(node, (child) => visit(child, name));
  };
  visit(file, '');
  return out;
}

/** Named types reachable from the exports of `door` (through properties, parameters and return types) declared in `forbidden`. */
let program: ts.Program | null = null;
function typesFrom(door: string, forbidden: (declaredIn: string) => boolean): string[] {
  // One program for both files looked at (building it is most of this suite's time).
  program ??= ts.createProgram([join(STORAGE, 'sqlite', 'open.ts'), join(STORAGE, 'sqlite', 'database.ts')], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    module: ts.ModuleKind.ESNext,
    target: ts.ScriptTarget.ES2022,
    types: ['node'],
  });
  const checker = program.getTypeChecker();
  const sourceFile = program.getSourceFile(door)!;
  const seen = new Set<ts.Type>();
  const out = new Set<string>();
  const walk = (type: ts.Type, depth: number, path: string) => {
    if (seen.has(type) || depth > 4) return;
    seen.add(type);
    // Named types only (an export's own anonymous function or object type is declared where it is).
    const named = [type.getSymbol(), type.aliasSymbol].filter(
      (s) => s && s.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.Class | ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Enum),
    );
    for (const symbol of named) {
      for (const d of symbol?.getDeclarations() ?? []) {
        if (forbidden(d.getSourceFile().fileName))
          out.add(`${path}: ${checker.typeToString(type)} (${d.getSourceFile().fileName.replace(/.*node_modules\//, '')})`);
      }
    }
    if (type.isUnionOrIntersection()) type.types.forEach((t) => walk(t, depth, path));
    // Only the project's own types are looked into: a library's internals are not what a caller sees.
    const declared = type.getSymbol()?.getDeclarations()?.[0]?.getSourceFile().fileName ?? '';
    if (declared.includes('node_modules') && !forbidden(declared)) return;
    for (const signature of type.getCallSignatures()) {
      walk(checker.getReturnTypeOfSignature(signature), depth + 1, `${path}()`);
      for (const p of signature.getParameters()) walk(checker.getTypeOfSymbol(p), depth + 1, `${path}(${p.name})`);
    }
    for (const arg of (type as ts.TypeReference).typeArguments ?? []) walk(arg, depth + 1, `${path}<>`);
    if (type.flags & ts.TypeFlags.Object) {
      for (const p of checker.getPropertiesOfType(type)) walk(checker.getTypeOfSymbol(p), depth + 1, `${path}.${p.name}`);
    }
  };
  for (const exported of checker.getExportsOfModule(checker.getSymbolAtLocation(sourceFile)!)) {
    walk(checker.getTypeOfSymbolAtLocation(exported, sourceFile), 0, exported.name);
  }
  return [...out];
}

describe('the storage boundary', () => {
  const edges = importGraph();

  it('better-sqlite3 and pg are imported only inside their backend folders, which are entered only through their open.ts', () => {
    expect(backendLeaks(edges)).toEqual([]);
  });

  it('has no synchronous method: every method of the interfaces in src/service/storage/*.ts returns a Promise', () => {
    const files = readdirSync(STORAGE).filter((f) => f.endsWith('.ts'));
    expect(files).toEqual(expect.arrayContaining(['types.ts', 'knowledge-index.ts', 'open.ts']));
    const found = files.flatMap((f) => synchronousMethods(`storage/${f}`, readFileSync(join(STORAGE, f), 'utf8')));
    expect(found).toEqual([]);
  });

  it("sqlite/open.ts's exports mention no better-sqlite3 type and no type declared in storage/sqlite", () => {
    const leaks = typesFrom(join(STORAGE, 'sqlite', 'open.ts'), (f) => f.includes('better-sqlite3') || f.includes('/storage/sqlite/'));
    expect(leaks).toEqual([]);
  });

  it('fails on a leak: a route importing better-sqlite3 or a backend module, a sync method, a SQLite type through the door', () => {
    const edge = (from: string, to: string, external = false): ImportEdge => ({ from, to, external, typeOnly: true });
    expect(backendLeaks([edge('service/routes/files.ts', 'better-sqlite3', true)])).toEqual([
      'service/routes/files.ts imports better-sqlite3: only service/storage/sqlite/ may',
    ]);
    expect(backendLeaks([edge('service/knowledge/index.ts', 'service/storage/sqlite/database.ts')])).toHaveLength(1);
    expect(backendLeaks([edge('service/app.ts', 'service/storage/postgres/open.ts')])).toHaveLength(1);
    expect(backendLeaks([edge('service/storage/open.ts', 'service/storage/sqlite/open.ts')])).toEqual([]);
    expect(
      synchronousMethods('x.ts', 'interface Q { claim(kind: string): Job | null; ok(): Promise<void>; run: (x: number) => void; readonly backend: "sqlite" }'),
    ).toEqual(['x.ts: Q.claim returns Job | null, not a Promise', 'x.ts: Q.run returns void, not a Promise']);
    expect(synchronousMethods('y.ts', 'interface S { transaction<T>(fn: () => T): T }')).toHaveLength(1);
    // The door itself, seen from inside: sqlite/database.ts exports the better-sqlite3 handle.
    expect(typesFrom(join(STORAGE, 'sqlite', 'database.ts'), (f) => f.includes('better-sqlite3')).length).toBeGreaterThan(0);
  });
});
