/** Plain text and Markdown into heading/paragraph blocks. */
import type { TextBlock } from '../types';

/** Markdown: `#` headings, paragraphs joined across hard line wraps, YAML front matter removed. */
export function markdownBlocks(source: string): { blocks: TextBlock[]; title?: string } {
  const { body, title } = stripFrontMatter(source);
  const blocks: TextBlock[] = [];
  let paragraph: string[] = [];
  let inFence = false;
  const flush = () => {
    const text = singleSpaced(paragraph.join(' ')).trim();
    if (text) blocks.push({ level: 0, text: cleanInlineMarkdown(text) });
    paragraph = [];
  };
  for (const rawLine of body.split(/\r?\n/)) {
    const line = rawLine.trimEnd();
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      flush();
      continue;
    }
    const heading = inFence ? null : atxHeading(line);
    if (heading) {
      flush();
      const text = cleanInlineMarkdown(heading.text);
      if (text) blocks.push({ level: heading.level, text });
    } else if (line.trim() === '') {
      flush();
    } else if (/^\s*([-*+]|\d+[.)]|[a-z][.)]|\([a-z0-9]+\))\s+/i.test(line)) {
      // A list item is its own paragraph; the passage splitter merges short ones back together.
      flush();
      paragraph.push(line.trim());
    } else {
      paragraph.push(line.trim());
    }
  }
  flush();
  return { blocks, title };
}

const HEADING_OPEN = /^\s{0,3}(#{1,6})\s+/;
const LINE_BREAK = /[\r\u2028\u2029]/;

/**
 * `# Title ##` → level 1, "Title": the opening hashes, then the text without the optional closing
 * hashes and the spaces around them. The closing run is cut by scanning back from the end; a regex
 * such as `(.*?)\s*#*\s*$` backtracks cubically on a heading full of spaces.
 */
export function atxHeading(line: string): { level: number; text: string } | null {
  const open = HEADING_OPEN.exec(line);
  if (!open) return null;
  let end = line.length;
  const isSpace = (i: number) => /\s/.test(line[i]!);
  while (end > open[0].length && isSpace(end - 1)) end--;
  while (end > open[0].length && line[end - 1] === '#') end--;
  while (end > open[0].length && isSpace(end - 1)) end--;
  const text = line.slice(open[0].length, end);
  // The heading text is one line: `.` in the pattern this replaces stops at any line break.
  return LINE_BREAK.test(text) ? null : { level: open[1]!.length, text };
}

function cleanInlineMarkdown(text: string): string {
  let cleaned = text.includes('[') ? linksToText(linksToText(text, true), false) : text;
  if (cleaned.includes('`')) cleaned = cleaned.replace(/`([^`]*)`/g, '$1');
  if (cleaned.includes('**') || cleaned.includes('__')) cleaned = cleaned.replace(/(\*\*|__)(.*?)\1/g, '$2');
  cleaned = cleaned.replace(/^\s*[-*+]\s+/, '');
  return spacedPipes(cleaned).trim();
}

/** Whitespace other than a single space, or two spaces: what `\s+` → ' ' would change. */
const NOT_SINGLE_SPACED = /[^\S ]| {2}/;

/**
 * `text.replace(/\s+/g, ' ')`, skipped when it would change nothing: most lines of a document are
 * already single-spaced, and the replace copied every one of them (a 10 MB upload's text, twice over).
 */
function singleSpaced(text: string): string {
  return NOT_SINGLE_SPACED.test(text) ? text.replace(/\s+/g, ' ') : text;
}

/**
 * `![alt](url)` (images) or `[text](url)` (links) replaced by their text, in one pass: the next `]`
 * and `)` are each searched for once, where a regex rescans to the end for every unclosed `[`.
 */
function linksToText(text: string, images: boolean): string {
  const opener = images ? '![' : '[';
  let out = '';
  let kept = 0;
  let bracket = -2;
  let paren = -2;
  for (let i = text.indexOf(opener); i >= 0; i = text.indexOf(opener, i + 1)) {
    const from = i + opener.length;
    if (bracket !== -1 && bracket < from) bracket = text.indexOf(']', from);
    if (bracket === -1) break;
    if ((!images && bracket === from) || text[bracket + 1] !== '(') continue;
    if (paren !== -1 && paren < bracket + 2) paren = text.indexOf(')', bracket + 2);
    if (paren === -1) break;
    out += text.slice(kept, i) + text.slice(from, bracket);
    kept = paren + 1;
    i = paren;
  }
  return kept === 0 ? text : out + text.slice(kept);
}

/** `a|b`, `a   |  b` → `a | b`, without a regex whose leading `\s*` is retried across long runs of spaces. */
function spacedPipes(text: string): string {
  if (!text.includes('|')) return text;
  const parts = text.split('|');
  return parts.map((p, i) => (i === 0 ? p.trimEnd() : i === parts.length - 1 ? p.trimStart() : p.trim())).join(' | ');
}

/**
 * YAML front matter comes as `---\n...\n---` or, in some generators (comply), as bare `key: value`
 * lines closed by `---`. Its `name:`/`title:` becomes the document title; the rest is dropped.
 */
export function stripFrontMatter(source: string): { body: string; title?: string } {
  const text = source.replace(/^\uFEFF/, '');
  const lines = text.split(/\r?\n/);
  let start = 0;
  if (lines[0]?.trim() === '---') start = 1;
  else if (!/^[A-Za-z_][\w-]*:\s*/.test(lines[0] ?? '')) return { body: text };
  let end = -1;
  for (let i = start; i < Math.min(lines.length, 200); i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '---' || line.trim() === '...') {
      end = i;
      break;
    }
    if (start === 0 && line.trim() !== '' && !/^(\s+|[A-Za-z_][\w-]*:|-\s)/.test(line)) return { body: text };
  }
  if (end < 0) return { body: text };
  const yaml = lines.slice(start, end);
  const titleLine = yaml.find((l) => /^(name|title):\s*\S/.test(l));
  const title = titleLine
    ?.replace(/^(name|title):\s*/, '')
    .replace(/^["']|["']$/g, '')
    .trim();
  return { body: lines.slice(end + 1).join('\n'), title: title || undefined };
}

/**
 * Plain text has no markup, but exported documents keep their headings as short lines without
 * sentence punctuation followed by body text. Those become headings; everything else paragraphs.
 */
export function plainTextBlocks(source: string): TextBlock[] {
  const lines = source
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((l) => singleSpaced(l).trim());
  const blocks: TextBlock[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    // The lines are single-spaced and trimmed, and none is empty: joined by spaces, they stay single-spaced.
    const joined = paragraph.join(' ');
    const text = (joined.includes('•') ? joined.replace(/•\s*•/g, '•') : joined).trim();
    if (text && text !== '•') blocks.push({ level: 0, text });
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') {
      // A lone bullet line followed by a blank belongs to the next item, not a paragraph break.
      if (paragraph.length && paragraph[paragraph.length - 1] !== '•') flush();
      continue;
    }
    const next = nextNonEmpty(lines, i + 1);
    if (looksLikeHeading(line, next)) {
      flush();
      blocks.push({ level: 1, text: line });
      continue;
    }
    paragraph.push(line);
  }
  flush();
  return blocks;
}

function nextNonEmpty(lines: string[], from: number): string | undefined {
  for (let i = from; i < lines.length; i++) if (lines[i]) return lines[i];
  return undefined;
}

function looksLikeHeading(line: string, next: string | undefined): boolean {
  if (line.length > 70 || line.length < 3) return false;
  if (/[.,;:!?•)]$/.test(line) || /^[•\-*\d(]/.test(line)) return false;
  if (!/^[A-Z]/.test(line)) return false;
  const words = line.split(' ');
  if (words.length > 8) return false;
  // Title-ish: most words capitalised, and followed by a longer line of body text.
  const capitalised = words.filter((w) => /^[A-Z0-9&(]/.test(w)).length;
  if (capitalised < Math.ceil(words.length / 2)) return false;
  return next !== undefined && next.length > line.length;
}
