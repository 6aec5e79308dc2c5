// First-run data for `npm start`: two organisations, each with its own API key. "demo" holds a small
// knowledge base written for this project (the fictional Northwind) and the demo questionnaire on disk;
// "local" is the analyst's own, with an empty library, so the demo's documents never answer real
// questionnaires. Idempotent: a second run reuses all of it (and adds the "local" key to older data folders).
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiClient } from '../../src/api/client';
import { createKey } from '../../src/service/admin';
import { buildDemoQuestionnaire } from '../../src/workbench/demo-questionnaire';

const KB_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'kb');
export const DEMO_ORG = 'demo';
/** The analyst's own organisation on this machine. */
export const LOCAL_ORG = 'local';

export interface DemoInfo {
  /** The demo organisation and its key: the Northwind sample documents. */
  org: string;
  key: string;
  /** The analyst's own organisation and its key: an empty library for their own documents. */
  ownOrg: string;
  ownKey: string;
  questionnairePath: string;
  seededNow: boolean;
}

interface DemoRecord {
  key: string;
  kbUploaded: boolean;
  ownKey?: string;
}

/**
 * `fetchImpl` lets the caller reach its own server without trusting the development certificate
 * (e.g. Fastify's inject); by default plain fetch is used.
 */
export async function seedDemo(options: { dataDir: string; baseUrl: string; fetchImpl?: typeof fetch }): Promise<DemoInfo> {
  const recordPath = path.join(options.dataDir, 'demo.json');
  const record: DemoRecord = existsSync(recordPath)
    ? (JSON.parse(readFileSync(recordPath, 'utf8')) as DemoRecord)
    : { key: await createKey(options.dataDir, { org: DEMO_ORG, user: 'analyst', role: 'admin', name: 'demo' }), kbUploaded: false };
  record.ownKey ??= await createKey(options.dataDir, { org: LOCAL_ORG, user: 'analyst', role: 'admin', name: 'analyst' });
  const seededNow = !record.kbUploaded;
  writeFileSync(recordPath, JSON.stringify(record, null, 2), { mode: 0o600 });

  if (!record.kbUploaded) {
    const client = new ApiClient({ baseUrl: options.baseUrl, apiKey: record.key, fetch: options.fetchImpl });
    const files = readdirSync(KB_DIR)
      .filter((f) => f.endsWith('.md'))
      .map((name) => ({ name, data: new Uint8Array(readFileSync(path.join(KB_DIR, name))), type: 'text/markdown' }));
    await client.uploadRepositoryFiles(files, { tags: ['demo'], scope_includes_company: true });
    record.kbUploaded = true;
    writeFileSync(recordPath, JSON.stringify(record, null, 2), { mode: 0o600 });
  }

  const demoDir = path.join(options.dataDir, 'demo');
  mkdirSync(demoDir, { recursive: true });
  const questionnairePath = path.join(demoDir, 'demo-questionnaire.xlsx');
  if (!existsSync(questionnairePath)) writeFileSync(questionnairePath, await buildDemoQuestionnaire());

  return { org: DEMO_ORG, key: record.key, ownOrg: LOCAL_ORG, ownKey: record.ownKey, questionnairePath, seededNow };
}
