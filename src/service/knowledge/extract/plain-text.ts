/** Plain text and Markdown into heading/paragraph blocks. */
import type { TextBlock } from '../types';

/** Markdown: `#` headings, paragraphs joined across hard line wraps, YAML front matter removed. */
export function markdownBlocks(source: string): { blocks: TextBlock[]; title?: string } {
  const { body, title } = stripFrontMatter(source);
  const blocks: TextBlock[] = [];
  let paragraph: string[] = [];
  let inFence = false;
  const flush = () => {
    const text = paragraph.join(' ').replace(/\s+/g, ' ').trim();
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
    const heading = !inFence && /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      flush();
      const text = cleanInlineMarkdown(heading[2] ?? '');
      if (text) blocks.push({ level: heading[1]!.length, text });
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

function cleanInlineMarkdown(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__)(.*?)\1/g, '$2')
    .replace(/^\s*[-*+]\s+/, '')
    .replace(/\s*\|\s*/g, ' | ')
    .trim();
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
  const title = titleLine?.replace(/^(name|title):\s*/, '').replace(/^["']|["']$/g, '').trim();
  return { body: lines.slice(end + 1).join('\n'), title: title || undefined };
}

/**
 * Plain text has no markup, but exported documents keep their headings as short lines without
 * sentence punctuation followed by body text. Those become headings; everything else paragraphs.
 */
export function plainTextBlocks(source: string): TextBlock[] {
  const lines = source.replace(/^\uFEFF/, '').split(/\r?\n/).map((l) => l.replace(/\s+/g, ' ').trim());
  const blocks: TextBlock[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    const text = paragraph.join(' ').replace(/\s+/g, ' ').replace(/•\s*•/g, '•').trim();
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
