/**
 * The API client and `qfill fill` against the second, spec-only v2 service (test/contract-service):
 * what our own service happens to do (selected_answer_id, an `answer` role, our evaluation shape)
 * must not be what they rely on.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client';
import type { FillReportJson } from '../../src/cli/fill-report';
import { XlsxPackage } from '../../src/xlsx';
import { runFillCaptured, tempDir } from '../xlsx/service-helpers';
import { CONTRACT_KEY, CONTRACT_TAB, ContractService } from './server';

let service: ContractService;
let client: ApiClient;
beforeAll(async () => {
  service = await ContractService.start();
  client = new ApiClient({ baseUrl: service.origin, apiKey: CONTRACT_KEY, retry: { retries: 0 } });
});
afterAll(() => service?.close());

describe('the API client against a spec-only service', () => {
  it('follows absolute next links with the service’s own page size, and reads extra fields without complaint', async () => {
    const files = [];
    for await (const f of client.iterateRepositoryFiles()) files.push(f);
    expect(files.map((f) => f.original_filename)).toEqual(['policy-1.pdf', 'policy-2.pdf', 'policy-3.pdf', 'policy-4.pdf', 'policy-5.pdf']);
    expect(service.requests.filter((r) => r.path === '/api/v2/repository/files/').length).toBe(3);
    expect((files[0] as Record<string, unknown>).storage_tier).toBe('warm');
  });

  it('asks with sources of only the three documented keys, and chats with sources that have no rank', async () => {
    const asked = await client.ask({ question: 'Is data encrypted at rest?' });
    expect(asked.session_id).toBeNull();
    expect(asked.sources).toEqual([{ filename: 'encryption-standard.pdf', page_number: 2, content: 'Customer data is encrypted at rest using AES-256.' }]);
    const session = await client.createSession({});
    const after = await client.sendMessage(session.id, { message: 'Which algorithm?' });
    expect(after.messages!.at(-1)!.sources[0]).toMatchObject({ source_file: 'encryption-standard.pdf', relevance_score: 0.82 });
    for (let i = 0; i < 3; i++) await client.createSession({ title: `Session ${i}` });
    const sessions = [];
    for await (const s of client.iterateSessions()) sessions.push(s.title);
    expect(sessions).toHaveLength(4);
  });

  it('reads questionnaires, progress, answers and structure of its own shape', async () => {
    const [q] = await client.listQuestionnaires();
    expect(q!.id).toBe(77);
    const answers = await client.getAnswers(77);
    expect(answers.map((a) => a.original_id)).toEqual(['ENC-1', 'ENC-2', 'SEC-9', 'ACC-3']);
    expect(answers[0]!.selected_answer_id).toBeUndefined();
    expect((await client.getStructure(77)).avg_score).toBe(88);
  });

  it('names what was wrong when the key is refused', async () => {
    const wrong = new ApiClient({ baseUrl: service.origin, apiKey: 'nope', retry: { retries: 0 } });
    await expect(wrong.ask({ question: 'x' })).rejects.toMatchObject({ status: 403, message: expect.stringContaining('unknown API key') });
  });
});

async function questionnaireWorkbook(): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(CONTRACT_TAB);
  ws.addRow(['ID', 'Question', 'Vendor Response', 'Supporting Detail']);
  ws.addRow(['ENC-1', 'Is customer data encrypted at rest?']);
  ws.addRow(['ENC-2', 'Do you support customer-managed keys?']);
  ws.addRow(['SEC-9', 'Describe your penetration testing.']);
  ws.addRow(['ACC-3', 'Is MFA required for administrators?']);
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

describe('qfill fill against a spec-only service', () => {
  it('writes the approved or most recent answer by its own slot roles, keys and evaluation, and holds back what it cannot rate', async () => {
    const dir = tempDir('qfill-contract-');
    const input = join(dir, 'questionnaire.xlsx');
    writeFileSync(input, await questionnaireWorkbook());
    const env = { QFILL_BASE_URL: service.origin, QFILL_API_KEY: CONTRACT_KEY };
    const run = await runFillCaptured([input, '--out', join(dir, 'filled.xlsx'), '--report', join(dir, 'report.json')], env);
    expect(run.code, run.stderr).toBe(0);
    const cells = (file: string, addresses: string[]) => {
      const read = XlsxPackage.open(readFileSync(join(dir, file))).readCells(CONTRACT_TAB, addresses);
      return Object.fromEntries(addresses.map((a) => [a, read.get(a)?.value ?? null]));
    };
    expect(cells('filled.xlsx', ['C2', 'D2', 'C3', 'D3', 'D4', 'C5'])).toEqual({
      C2: 'Yes', // the approved, newer answer, not the first one ("No")
      D2: 'All customer data is encrypted at rest with AES-256.', // slot response keyed by header
      C3: null, // a draft with an evaluation we cannot read: held back
      D3: null,
      D4: 'An independent firm tests yearly; findings are fixed within 30 days.', // the only slot gets the text
      C5: 'Yes', // "Yes - enforced …" fitted to the dropdown
    });
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as FillReportJson;
    const drafts = report.tabs.flatMap((t) => t.cells).filter((c) => c.reason === 'draft');
    expect(drafts.map((d) => [d.address, d.value])).toEqual([
      ['C3', 'No'],
      ['D3', 'Not offered today.'],
    ]);
    // Sources by rank, whatever their order in the response.
    expect(report.tabs[0]!.cells.find((c) => c.address === 'C2')!.sources.map((s) => s.filename)).toEqual(['encryption-standard.pdf', 'key-management.pdf']);

    const withDrafts = await runFillCaptured([input, '--out', join(dir, 'drafts.xlsx'), '--write-drafts'], env);
    expect(withDrafts.code, withDrafts.stderr).toBe(0);
    expect(cells('drafts.xlsx', ['C3', 'D3'])).toEqual({ C3: 'No', D3: 'Not offered today.' }); // keyed by coordinate
  });
});
