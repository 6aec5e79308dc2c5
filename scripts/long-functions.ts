/**
 * Lists the functions of `src/` longer than a limit (the developers' guide: none over ~120 lines
 * without a reason written above it), longest first, from the TypeScript syntax tree: function
 * declarations and expressions, arrow functions, methods and accessors, each counted from its first
 * line to its last. A function may be longer when the comment above it says why, in words that
 * contain "over 120 lines" (test/architecture/function-length.test.ts holds src/ to it).
 *
 *   npx tsx scripts/long-functions.ts [--limit 120] [--exclude src/taskpane] [dir ...]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export interface LongFunction {
  file: string;
  name: string;
  line: number;
  lines: number;
  /** The comment above it says why it is long (it contains "over 120 lines", or the limit given). */
  reasoned: boolean;
}

function sourceFiles(dir: string, exclude: readonly string[]): string[] {
  if (exclude.some((e) => dir === e || dir.startsWith(`${e}/`))) return [];
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path, exclude);
    return /\.tsx?$/.test(entry) && !entry.endsWith('.d.ts') ? [path] : [];
  });
}

/** What the function is called where it is defined: its own name, its variable's, its property's, or `(anonymous)`. */
function nameOf(node: ts.Node): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name && ts.isIdentifier(named.name)) return named.name.text;
  if (named.name && (ts.isStringLiteral(named.name) || ts.isPrivateIdentifier(named.name))) return named.name.text;
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText();
  if (parent && ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText().slice(0, 40)})`;
  return '(anonymous)';
}

/** The comments above the declaration or statement the function belongs to. */
function commentsAbove(node: ts.Node, source: ts.SourceFile): string {
  let holder: ts.Node = node;
  while (
    holder.parent &&
    !ts.isSourceFile(holder.parent) &&
    !ts.isBlock(holder.parent) &&
    !ts.isClassLike(holder.parent) &&
    !ts.isObjectLiteralExpression(holder.parent)
  )
    holder = holder.parent;
  const text = source.getFullText();
  return (ts.getLeadingCommentRanges(text, holder.getFullStart()) ?? []).map((r) => text.slice(r.pos, r.end)).join('\n');
}

export { sourceFiles };

export function longFunctions(files: readonly string[], limit: number, root = process.cwd()): LongFunction[] {
  const out: LongFunction[] = [];
  for (const file of files) {
    const source = ts.createSourceFile(
      file,
      readFileSync(file, 'utf8'),
      ts.ScriptTarget.Latest,
      true,
      file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
    );
    const visit = (node: ts.Node) => {
      if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body) {
        const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        const lines = end - start + 1;
        if (lines > limit) {
          const reasoned = new RegExp(`over ${limit} lines`, 'i').test(commentsAbove(node, source));
          out.push({ file: relative(root, file), name: nameOf(node), line: start + 1, lines, reasoned });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return out.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file));
}

function main(argv: readonly string[]): void {
  let limit = 120;
  const exclude: string[] = [];
  const dirs: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--limit') limit = Number(argv[++i]);
    else if (argv[i] === '--exclude') exclude.push(argv[++i]!.replace(/\/$/, ''));
    else dirs.push(argv[i]!.replace(/\/$/, ''));
  }
  const found = longFunctions(
    (dirs.length ? dirs : ['src']).flatMap((d) => sourceFiles(d, exclude)),
    limit,
  );
  for (const f of found) console.log(`${String(f.lines).padStart(5)}  ${f.file}:${f.line}  ${f.name}${f.reasoned ? '  (reason given above it)' : ''}`);
  console.log(`${found.length} function${found.length === 1 ? '' : 's'} over ${limit} lines`);
}

if (process.argv[1] && /long-functions\.ts$/.test(process.argv[1])) main(process.argv.slice(2));
