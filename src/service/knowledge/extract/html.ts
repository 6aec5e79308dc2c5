/** HTML (and mammoth's docx output) into heading/paragraph blocks. */
import { parse, type HTMLElement, type Node } from 'node-html-parser';
import type { TextBlock } from '../types';

const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'nav', 'head', 'iframe', 'button', 'form']);
const BLOCK_TAGS = new Set(['p', 'li', 'td', 'th', 'dd', 'dt', 'pre', 'blockquote', 'figcaption', 'caption', 'summary']);

export function htmlBlocks(html: string): { blocks: TextBlock[]; title?: string } {
  const root = parse(html, { comment: false, blockTextElements: { script: false, style: false, pre: true } });
  const title = root.querySelector('title')?.text.trim() || undefined;
  const body = root.querySelector('body') ?? root;
  const blocks: TextBlock[] = [];
  walk(body, blocks);
  return { blocks, title };
}

function walk(node: Node, blocks: TextBlock[]): void {
  for (const child of node.childNodes) {
    if (child.nodeType === 3) {
      // Loose text directly inside a container (e.g. <div>text</div>) is a paragraph of its own.
      const text = collapse(child.rawText ? decode(child.text) : '');
      if (text) pushParagraph(blocks, text);
      continue;
    }
    if (child.nodeType !== 1) continue;
    const element = child as HTMLElement;
    const tag = element.rawTagName?.toLowerCase() ?? '';
    if (SKIPPED.has(tag)) continue;
    const heading = /^h([1-6])$/.exec(tag);
    if (heading) {
      const text = collapse(element.text);
      if (text) blocks.push({ level: Number(heading[1]), text });
    } else if (BLOCK_TAGS.has(tag) && !hasBlockChild(element)) {
      const text = collapse(element.text);
      if (text) pushParagraph(blocks, text);
    } else if (tag === 'tr') {
      const cells = element
        .querySelectorAll('td,th')
        .map((c) => collapse(c.text))
        .filter(Boolean);
      if (cells.length) pushParagraph(blocks, cells.join(' | '));
    } else if (tag === 'br') {
      continue;
    } else {
      walk(element, blocks);
    }
  }
}

function hasBlockChild(element: HTMLElement): boolean {
  return element.childNodes.some((c) => {
    if (c.nodeType !== 1) return false;
    const tag = (c as HTMLElement).rawTagName?.toLowerCase() ?? '';
    return BLOCK_TAGS.has(tag) || /^h[1-6]$/.test(tag) || tag === 'ul' || tag === 'ol' || tag === 'table' || tag === 'div';
  });
}

function pushParagraph(blocks: TextBlock[], text: string): void {
  blocks.push({ level: 0, text });
}

function collapse(text: string): string {
  return decode(text).replace(/\s+/g, ' ').trim();
}

function decode(text: string): string {
  return text
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)));
}
