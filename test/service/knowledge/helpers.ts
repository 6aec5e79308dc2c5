/**
 * Shared test helpers: a real knowledge index (SQLite in a temp folder, or a throwaway PostgreSQL database
 * in the `postgres` project), fixture paths, small generated files.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { extractDocument, KnowledgeBase, type FileMeta, type KnowledgeOptions } from '../../../src/service/knowledge';
import type { KnowledgeIndex } from '../../../src/service/storage/knowledge-index';
import { openStorage } from '../../../src/service/storage/open';
import { SqliteKnowledgeIndex } from '../../../src/service/storage/sqlite/knowledge';
import { queryDatabase } from '../database';
import { createTestDatabase, TEST_BACKEND } from '../postgres';

export const FIXTURES = path.resolve('../shared/fixtures');

/** Reads a fixture, failing with a clear message (never skipping) when the shared folder is absent. */
export function fixture(relative: string): Uint8Array {
  const file = path.join(FIXTURES, relative);
  if (!existsSync(file)) {
    throw new Error(`fixture missing: ${file}. These tests need the shared real-world fixtures in ../shared/fixtures (see its README).`);
  }
  return new Uint8Array(readFileSync(file));
}

export interface TempKb {
  kb: KnowledgeBase;
  index: KnowledgeIndex;
  backend: 'sqlite' | 'postgres';
  /** Rows of a query on the index's database (`?` placeholders, SQL both backends accept). */
  query<T = Record<string, unknown>>(sql: string, args?: unknown[]): Promise<T[]>;
  /** The same index through a second connection, as another process would see it. */
  second(): Promise<{ index: KnowledgeIndex; close: () => Promise<void> }>;
  close: () => Promise<void>;
}

/** A knowledge base over an empty index on the test project's backend. */
export async function tempKb(options?: KnowledgeOptions): Promise<TempKb> {
  const dir = mkdtempSync(path.join(tmpdir(), 'qfill-kb-'));
  if (TEST_BACKEND === 'postgres') {
    const database = await createTestDatabase();
    const open = () => openStorage({ dataDir: dir, databaseUrl: database.url, poolSize: 2 });
    const storage = await open();
    return {
      kb: new KnowledgeBase(storage.knowledgeIndex!, options),
      index: storage.knowledgeIndex!,
      backend: 'postgres',
      query: (sql, args) => queryDatabase({ databaseUrl: database.url }, sql, args),
      second: async () => {
        const other = await open();
        return { index: other.knowledgeIndex!, close: () => other.store.close() };
      },
      close: async () => {
        await storage.store.close();
        await database.drop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const file = path.join(dir, 'kb.sqlite');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const index = new SqliteKnowledgeIndex(db);
  return {
    kb: new KnowledgeBase(index, options),
    index,
    backend: 'sqlite',
    query: (sql, args) => queryDatabase({ sqliteFile: file }, sql, args),
    second: async () => {
      const other = new Database(file);
      return { index: new SqliteKnowledgeIndex(other), close: async () => void other.close() };
    },
    close: async () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function meta(overrides: Partial<FileMeta> & { file_id: number; filename: string }): FileMeta {
  return { org_id: 1, offering_ids: [], scope_includes_company: true, use_as_source: true, ...overrides };
}

/** Extracts and indexes a text document given as a string. */
export async function addText(kb: KnowledgeBase, m: FileMeta, text: string): ReturnType<KnowledgeBase['indexDocument']> {
  const doc = await extractDocument(strToU8(text), m.filename);
  return kb.indexDocument(m, doc);
}

/** A minimal valid .docx: headings use the built-in Heading1/Heading2 styles mammoth maps to <h1>/<h2>. */
export function buildDocx(paragraphs: { style?: 'Heading1' | 'Heading2'; text: string }[]): Uint8Array {
  const body = paragraphs
    .map((p) => {
      const props = p.style ? `<w:pPr><w:pStyle w:val="${p.style}"/></w:pPr>` : '';
      return `<w:p>${props}<w:r><w:t xml:space="preserve">${escapeXml(p.text)}</w:t></w:r></w:p>`;
    })
    .join('');
  const files = {
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
        '<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>' +
        '</Types>',
    ),
    '_rels/.rels': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
        '</Relationships>',
    ),
    'word/_rels/document.xml.rels': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>' +
        '</Relationships>',
    ),
    'word/styles.xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
        '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style>' +
        '<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/></w:style>' +
        '</w:styles>',
    ),
    'word/document.xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
        `<w:body>${body}</w:body></w:document>`,
    ),
  };
  return zipSync(files);
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export const YES_NO_SLOTS = [
  { role: 'answer', header: 'Vendor Answer', coordinate: 'C5', type: 'list', allowed_values: ['Yes', 'No', 'N/A'] },
  { role: 'comment', header: 'Additional Information', coordinate: 'D5' },
];
