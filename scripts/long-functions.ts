// Lists the functions longer than a limit (120 lines by default) under the given folders, and whether a
// comment above each says why it stays long. The developers' guide asks for a reason above any such function.
//
//   npx tsx scripts/long-functions.ts src/taskpane src/fill [--limit 120] [--exclude src/taskpane/answers]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export interface LongFunction {
  file: string;
  name: string;
  line: number;
  lines: number;
  reason: boolean;
}

function sourceFiles(path: string, excluded: readonly string[]): string[] {
  if (excluded.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) return [];
  if (statSync(path).isDirectory()) {
    return readdirSync(path).flatMap((entry) => sourceFiles(join(path, entry), excluded));
  }
  return /\.tsx?$/.test(path) && !path.endsWith('.d.ts') ? [path] : [];
}

function functionName(node: ts.Node): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText();
  return '(anonymous)';
}

/** The statement whose leading comments would explain the function: its declaration, or the variable holding it. */
function commentedNode(node: ts.Node): ts.Node {
  let current = node;
  while (
    ts.isVariableDeclaration(current.parent) ||
    ts.isVariableDeclarationList(current.parent) ||
    ts.isVariableStatement(current.parent) ||
    ts.isExportAssignment(current.parent)
  ) {
    current = current.parent;
  }
  return current;
}

export function longFunctions(paths: readonly string[], limit = 120, excluded: readonly string[] = []): LongFunction[] {
  const found: LongFunction[] = [];
  for (const file of paths.flatMap((path) => sourceFiles(path, excluded))) {
    const text = readFileSync(file, 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        const lines = end - start + 1;
        if (lines > limit) {
          const comments = ts.getLeadingCommentRanges(text, commentedNode(node).getFullStart()) ?? [];
          found.push({ file: relative(process.cwd(), file), name: functionName(node), line: start + 1, lines, reason: comments.length > 0 });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found.sort((a, b) => b.lines - a.lines);
}

if (process.argv[1]?.endsWith('long-functions.ts')) {
  const args = process.argv.slice(2);
  const option = (name: string): string[] =>
    args.flatMap((arg, index) => (arg === name && args[index + 1] ? [args[index + 1] as string] : []));
  const limit = Number(option('--limit')[0] ?? 120);
  const excluded = option('--exclude');
  const paths = args.filter((arg, index) => !arg.startsWith('--') && !args[index - 1]?.startsWith('--'));
  const found = longFunctions(paths.length > 0 ? paths : ['src'], limit, excluded);
  for (const fn of found) {
    console.log(`${String(fn.lines).padStart(4)}  ${fn.file}:${fn.line}  ${fn.name}${fn.reason ? '' : '  (no reason written above it)'}`);
  }
  console.log(`${found.length} function(s) over ${limit} lines`);
}
