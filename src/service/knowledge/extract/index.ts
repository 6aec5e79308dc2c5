/**
 * extractDocument: bytes + filename into pages (with structure) or answer-library entries, within the
 * size limits of `ReadLimits` (a text file too large to decode, a .docx expanding past its limits, or
 * more text than a document may yield fails with the limit named).
 */
import { isXlsxError, sniffSpreadsheet } from '../../../xlsx';
import { readZip } from '../../../xlsx/zip';
import { sourceBytes, sourceSize, type FileSource } from '../../files/source';
import { DEFAULT_READ_LIMITS, megabytes, type ReadLimits } from '../../files/limits';
import { decodeText } from '../../detect/csv';
import { ExtractError } from '../types';
import type { ExtractedDocument, ExtractedPage, TextBlock } from '../types';
import { documentTypeOf } from './document-type';
import { docxBlocks } from './docx';
import { htmlBlocks } from './html';
import { pdfPages } from './pdf';
import { markdownBlocks, plainTextBlocks } from './plain-text';
import { libraryDecisions } from './library-export';
import { csvQa, xlsxQa } from './spreadsheet';

type Kind = 'pdf' | 'docx' | 'xlsx' | 'csv' | 'html' | 'md' | 'txt';

const EXTENSIONS: Record<string, Kind> = {
  pdf: 'pdf',
  docx: 'docx',
  xlsx: 'xlsx',
  xlsm: 'xlsx',
  csv: 'csv',
  html: 'html',
  htm: 'html',
  md: 'md',
  markdown: 'md',
  txt: 'txt',
  text: 'txt',
};

export async function extractDocument(source: FileSource, filename: string, limits: Partial<ReadLimits> = {}): Promise<ExtractedDocument> {
  const limit = { ...DEFAULT_READ_LIMITS, ...limits };
  if (!(source instanceof Uint8Array) && typeof source?.path !== 'string') throw new ExtractError(`${filename}: expected file bytes`);
  // A text file too large to decode is refused before it is even loaded.
  const declaredKind = EXTENSIONS[/\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase() ?? ''];
  if (declaredKind && TEXT_KINDS.has(declaredKind)) tooMuchText(filename, await sourceSize(source), limit);
  const bytes = await sourceBytes(source);
  if (bytes.byteLength === 0) throw new ExtractError(`${filename} is empty`);
  const kind = kindOf(bytes, filename);
  checkExpandedSize(kind, bytes, filename, limit);
  const doc = await extractByKind(kind, bytes, filename);
  const hasText = doc.pages.some((p) => p.text.trim() !== '');
  if (!hasText && doc.qa.length === 0) {
    const hint = kind === 'pdf' ? ' (a scanned PDF needs OCR first)' : '';
    throw new ExtractError(`no text could be extracted from ${filename}${hint}`);
  }
  const chars = textChars(doc);
  if (chars > limit.maxTextChars) {
    throw new ExtractError(
      `${filename} holds ${megabytes(chars)} of text; the limit is ${megabytes(limit.maxTextChars)} per document (split it into smaller files)`,
    );
  }
  return doc;
}

/** Refuses, before anything is decoded or inflated, what would expand past the limits. */
function checkExpandedSize(kind: Kind, bytes: Uint8Array, filename: string, limit: ReadLimits): void {
  if (TEXT_KINDS.has(kind)) tooMuchText(filename, bytes.byteLength, limit);
  if (kind === 'docx') {
    try {
      readZip(
        bytes,
        {
          maxEntries: 20_000,
          maxEntryUncompressed: limit.maxOoxmlPartBytes,
          maxTotalUncompressed: limit.maxOoxmlTotalBytes,
          maxRatio: 500,
          ratioMinSize: 16 * 1024 * 1024,
        },
        `"${filename}"`,
      );
    } catch (error) {
      if (isXlsxError(error)) throw new ExtractError(error.message.replace('Re-save it from Excel as .xlsx.', 'Re-save it from Word as .docx.'));
      throw error;
    }
  }
}

const TEXT_KINDS: ReadonlySet<Kind> = new Set(['txt', 'md', 'html', 'csv']);

function tooMuchText(filename: string, size: number, limit: ReadLimits): void {
  if (size <= limit.maxTextFileBytes) return;
  throw new ExtractError(
    `${filename} is ${megabytes(size)} of text; the limit is ${megabytes(limit.maxTextFileBytes)} per text file (split it into smaller files)`,
  );
}

function textChars(doc: ExtractedDocument): number {
  let n = 0;
  for (const page of doc.pages) n += page.text.length;
  for (const pair of doc.qa) {
    n += pair.question.length + pair.answer.length;
    for (const slot of pair.slots) n += slot.content.length;
  }
  return n;
}

function kindOf(bytes: Uint8Array, filename: string): Kind {
  const extension = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase() ?? '';
  const byExtension = EXTENSIONS[extension];
  const magic = String.fromCharCode(...bytes.subarray(0, 5));
  if (magic === '%PDF-') return 'pdf';
  if (byExtension === 'xlsx') {
    sniffXlsx(bytes, filename);
    return byExtension;
  }
  if (byExtension) {
    if (byExtension === 'docx' && !magic.startsWith('PK')) {
      throw new ExtractError(`${filename} is not a valid .${extension} file (it is not a zip package)`);
    }
    if (byExtension === 'pdf') throw new ExtractError(`${filename} is not a valid PDF (no %PDF header)`);
    return byExtension;
  }
  if (['doc', 'xls', 'ppt', 'pptx', 'rtf', 'odt'].includes(extension)) {
    throw new ExtractError(`${filename}: .${extension} files are not supported; save it as PDF, DOCX, XLSX, CSV, HTML, Markdown or text`);
  }
  throw new ExtractError(`${filename}: unsupported file type${extension ? ` .${extension}` : ''}; supported are PDF, DOCX, XLSX, CSV, HTML, Markdown and text`);
}

/** The xlsx layer's verdict on what the file really is (an .xls, an encrypted workbook, a renamed PDF). */
function sniffXlsx(bytes: Uint8Array, filename: string): void {
  try {
    sniffSpreadsheet(bytes, filename);
  } catch (error) {
    if (isXlsxError(error)) throw new ExtractError(error.message);
    throw error;
  }
}

async function extractByKind(kind: Kind, bytes: Uint8Array, filename: string): Promise<ExtractedDocument> {
  switch (kind) {
    case 'pdf': {
      const pages = await pdfPages(bytes, filename);
      return { file_format: 'pdf', document_type: documentTypeOf({ filename, pages }), pages, qa: [] };
    }
    case 'docx': {
      const blocks = await docxBlocks(bytes, filename);
      return textDocument('docx', filename, blocks);
    }
    case 'html': {
      const { blocks, title } = htmlBlocks(decodeText(bytes));
      return textDocument('html', filename, blocks, title);
    }
    case 'md': {
      const { blocks, title } = markdownBlocks(decodeText(bytes));
      return textDocument('txt', filename, blocks, title);
    }
    case 'txt':
      return textDocument('txt', filename, plainTextBlocks(decodeText(bytes)));
    case 'csv': {
      const qa = await csvQa(bytes, filename);
      return { file_format: 'excel', document_type: 'qna', pages: [], qa };
    }
    case 'xlsx': {
      const { qa, topText } = await xlsxQa(bytes, filename);
      if (qa.length === 0) {
        throw new ExtractError(
          `${filename}: no answered questions found; a spreadsheet in the knowledge base must be a completed questionnaire or have "Question" and "Answer" columns`,
        );
      }
      const decisions = libraryDecisions(qa);
      return { file_format: 'excel', document_type: 'qna', pages: [], qa, dates_text: topText, ...(decisions.length ? { library_decisions: decisions } : {}) };
    }
  }
}

function textDocument(format: 'docx' | 'html' | 'txt', filename: string, blocks: TextBlock[], title?: string): ExtractedDocument {
  const text = blocks.map((b) => (b.level > 0 ? `${'#'.repeat(b.level)} ${b.text}` : b.text)).join('\n\n');
  const pages: ExtractedPage[] = text.trim() ? [{ page_number: 1, text, blocks }] : [];
  const doc: ExtractedDocument = { file_format: format, document_type: documentTypeOf({ filename, title, pages }), pages, qa: [] };
  if (title) doc.title = title;
  return doc;
}
