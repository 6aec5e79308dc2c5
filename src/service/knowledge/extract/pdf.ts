/**
 * PDF text per page through pdfjs-dist (legacy build, which runs in Node). Lines are rebuilt from text
 * items; lines set in a clearly larger font than the body become headings, so passages know their
 * section even across pages. Running headers/footers and table-of-contents leaders are dropped.
 */
import { ExtractError, type ExtractedPage, type TextBlock } from '../types';

interface Line {
  text: string;
  height: number;
  y: number;
}

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjsPromise: Promise<PdfJs> | null = null;

function loadPdfJs(): Promise<PdfJs> {
  pdfjsPromise ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjsPromise;
}

export async function pdfPages(bytes: Uint8Array, filename: string): Promise<ExtractedPage[]> {
  const pdfjs = await loadPdfJs();
  // pdfjs takes ownership of (detaches) the buffer it is given: hand it a copy.
  const data = new Uint8Array(bytes);
  let document: Awaited<ReturnType<PdfJs['getDocument']>['promise']>;
  try {
    document = await pdfjs.getDocument({
      data,
      disableFontFace: true,
      useSystemFonts: false,
      isEvalSupported: false,
      useWorkerFetch: false,
      verbosity: 0,
    }).promise;
  } catch (error) {
    const message = (error as Error).message;
    if (/password/i.test(message)) throw new ExtractError(`${filename} is password-protected; upload an unprotected copy`);
    throw new ExtractError(`${filename} is not a readable PDF: ${message}`);
  }
  try {
    const pageLines: Line[][] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      pageLines.push(toLines(content.items as unknown[]));
      page.cleanup();
    }
    return structurePages(pageLines);
  } finally {
    await document.destroy();
  }
}

function toLines(items: unknown[]): Line[] {
  const lines: Line[] = [];
  let text = '';
  let height = 0;
  let y = Number.NaN;
  const push = () => {
    const clean = text.replace(/\s+/g, ' ').trim();
    if (clean) lines.push({ text: clean, height, y });
    text = '';
    height = 0;
    y = Number.NaN;
  };
  for (const raw of items) {
    const item = raw as { str?: string; hasEOL?: boolean; height?: number; transform?: number[] };
    if (typeof item.str !== 'string') continue;
    const itemY = item.transform?.[5] ?? Number.NaN;
    // A jump in baseline without an EOL flag still starts a new line.
    if (text && item.str.trim() && Number.isFinite(y) && Math.abs(itemY - y) > Math.max(2, height * 0.6)) push();
    if (item.str.trim()) {
      if (Number.isNaN(y)) y = itemY;
      height = Math.max(height, item.height ?? 0);
    }
    text += item.str;
    if (item.hasEOL) push();
  }
  push();
  return lines;
}

function structurePages(pageLines: Line[][]): ExtractedPage[] {
  const repeated = runningLines(pageLines);
  const bodyHeight = dominantHeight(pageLines.flat());
  const headingHeights = [
    ...new Set(
      pageLines
        .flat()
        .filter((l) => isHeadingLine(l, bodyHeight))
        .map((l) => Math.round(l.height)),
    ),
  ].sort((a, b) => b - a);
  const levelOf = (height: number) => Math.min(3, headingHeights.indexOf(Math.round(height)) + 1 || 3);

  return pageLines.map((lines, index) => {
    const blocks: TextBlock[] = [];
    let paragraph: string[] = [];
    let previous: Line | null = null;
    const flush = () => {
      const text = paragraph
        .join(' ')
        .replace(/\s+/g, ' ')
        .replace(/(\w)- (\w)/g, '$1-$2')
        .trim();
      if (text) blocks.push({ level: 0, text });
      paragraph = [];
    };
    for (const line of lines) {
      if (repeated.has(signature(line.text)) || /\.{5,}|(\. ){5,}/.test(line.text)) continue;
      if (isHeadingLine(line, bodyHeight)) {
        flush();
        const last = blocks[blocks.length - 1];
        // A heading set on two lines ("SECURITY" / "OVERVIEW") is one heading.
        if (last && last.level > 0 && previous && isHeadingLine(previous, bodyHeight) && Math.round(previous.height) === Math.round(line.height)) {
          last.text = `${last.text} ${line.text}`;
        } else {
          blocks.push({ level: levelOf(line.height), text: line.text });
        }
      } else {
        const gap = previous ? previous.y - line.y : 0;
        const startsItem = /^[•●▪◦\-–]\s|^\d+[.)]\s/.test(line.text);
        if (paragraph.length && (startsItem || gap > Math.max(line.height, previous!.height) * 1.9 || gap < 0)) flush();
        paragraph.push(line.text);
      }
      previous = line;
    }
    flush();
    const text = blocks.map((b) => (b.level > 0 ? `${'#'.repeat(b.level)} ${b.text}` : b.text)).join('\n\n');
    return { page_number: index + 1, text, blocks };
  });
}

/** Lines (digits ignored) present on at least 40% of pages: running headers and footers. */
function runningLines(pageLines: Line[][]): Set<string> {
  if (pageLines.length < 3) return new Set();
  const counts = new Map<string, number>();
  for (const lines of pageLines) {
    for (const s of new Set(lines.map((l) => signature(l.text)))) counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  const threshold = Math.max(3, Math.ceil(pageLines.length * 0.4));
  return new Set([...counts].filter(([s, n]) => n >= threshold && s.length < 80).map(([s]) => s));
}

function signature(text: string): string {
  return text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
}

/** The font height carrying most characters: the body text size. */
function dominantHeight(lines: Line[]): number {
  const weight = new Map<number, number>();
  for (const line of lines) {
    const h = Math.round(line.height * 2) / 2;
    weight.set(h, (weight.get(h) ?? 0) + line.text.length);
  }
  let best = 0;
  let bestWeight = -1;
  for (const [h, w] of weight) if (w > bestWeight) [best, bestWeight] = [h, w];
  return best;
}

function isHeadingLine(line: Line, bodyHeight: number): boolean {
  return bodyHeight > 0 && line.height >= bodyHeight * 1.25 && line.text.length <= 90 && /\p{L}{2}/u.test(line.text) && !/[.,;]$/.test(line.text);
}
