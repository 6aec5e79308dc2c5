// The README is the front door and docs/ holds the rest: every relative link between them (and into the
// code) must lead somewhere, including the heading a `#fragment` names, or a reader lands on nothing.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function withoutCodeBlocks(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '');
}

/** Markdown without code blocks and inline code spans, where brackets are not links. */
function prose(markdown: string): string {
  return withoutCodeBlocks(markdown).replace(/`[^`\n]*`/g, '');
}

function anchorsOf(markdown: string): Set<string> {
  const headings = withoutCodeBlocks(markdown).match(/^#{1,6} .+$/gm) ?? [];
  return new Set(headings.map((h) => headingSlug(h.replace(/^#+ /, ''))));
}

/** Relative link targets of a markdown file, images included (`http:`, `mailto:` and the like left out). */
export function relativeLinks(markdown: string): string[] {
  const targets = [...prose(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]);
  return targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

/** What is wrong with each link of `file` (a path relative to ROOT), or nothing. */
export function brokenLinks(file: string, markdown: string, root = ROOT): string[] {
  const problems: string[] = [];
  for (const link of relativeLinks(markdown)) {
    const [target, fragment] = link.split('#', 2);
    const resolved = target ? path.resolve(root, path.dirname(file), decodeURIComponent(target)) : path.resolve(root, file);
    if (!existsSync(resolved)) {
      problems.push(`${file}: ${link} points to ${path.relative(root, resolved)}, which does not exist`);
      continue;
    }
    if (fragment && resolved.endsWith('.md') && statSync(resolved).isFile()) {
      const text = resolved === path.resolve(root, file) ? markdown : readFileSync(resolved, 'utf8');
      if (!anchorsOf(text).has(fragment)) problems.push(`${file}: ${link} names no heading of ${path.relative(root, resolved)}`);
    }
  }
  return problems;
}

const DOCUMENTS = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe('links between the README and docs/', () => {
  it('the README and the four documents it points to are all there', () => {
    expect(DOCUMENTS).toEqual(expect.arrayContaining(['README.md', 'docs/architecture.md', 'docs/api.md', 'docs/operations.md', 'docs/benchmarks.md']));
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    for (const doc of DOCUMENTS.filter((d) => d !== 'README.md')) expect(relativeLinks(readme), `README links ${doc}`).toContain(doc);
  });

  it.each(DOCUMENTS)('every relative link of %s leads to an existing file and heading', (file) => {
    const markdown = readFileSync(path.join(ROOT, file), 'utf8');
    expect(brokenLinks(file, markdown)).toEqual([]);
  });

  it('the check itself catches a missing file, a missing heading, and ignores code and web addresses', () => {
    const markdown = [
      '# Top heading: `qfill`',
      '[ok](docs/api.md) [self](#top-heading-qfill) [web](https://example.com/x.md)',
      '[gone](docs/missing.md) [no heading](docs/api.md#no-such-heading) [no anchor](#nowhere)',
      '`[not a link](nowhere.md)`',
      '```',
      '[also not a link](nowhere-either.md)',
      '```',
    ].join('\n');
    expect(relativeLinks(markdown)).toEqual(['docs/api.md', '#top-heading-qfill', 'docs/missing.md', 'docs/api.md#no-such-heading', '#nowhere']);
    const problems = brokenLinks('README.md', markdown);
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toMatch(/docs\/missing\.md points to .*does not exist/);
    expect(problems.join('\n')).toMatch(/#no-such-heading names no heading/);
    expect(problems.join('\n')).toMatch(/#nowhere names no heading/);
  });

  it('heading anchors follow GitHub: "The command line: `qfill`" is #the-command-line-qfill', () => {
    expect(headingSlug('The command line: `qfill`')).toBe('the-command-line-qfill');
    expect(headingSlug('Limits: one hostile file never stops the service')).toBe('limits-one-hostile-file-never-stops-the-service');
  });
});
