/** Content-hash deduplication: the same bytes uploaded again add no duplicate evidence, and say so. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, client, files, KB_TEXT, startService, waitForFile, type Service } from './helpers';

let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => service.destroy());

describe('uploading content already in the library', () => {
  it('marks the second copy as a duplicate with no evidence, in the upload response and the file record', async () => {
    const key = await service.key({ org: 'acme', user: 'alice' });
    const api = client(service, key);
    const first = await api.post('/api/v2/repository/files/', files(['security.txt', KB_TEXT, 'text/plain']));
    expect(first.body.duplicates).toBeUndefined();
    const original = first.body.file_ids[0];
    expect((await waitForFile(api, original)).body.status).toBe('ready');

    const again = await api.post(
      '/api/v2/repository/files/',
      files(['security (copy).txt', KB_TEXT, 'text/plain'], ['other.txt', 'Backups are encrypted and tested monthly.', 'text/plain']),
    );
    expect(again.status).toBe(200);
    const copy = again.body.file_ids[0];
    expect(again.body.duplicates).toEqual([
      {
        file_id: copy,
        filename: 'security (copy).txt',
        duplicate_of: original,
        note: `duplicate of file ${original}: same content as "security.txt"; no evidence added`,
      },
    ]);
    const record = (await waitForFile(api, copy)).body;
    expect(record).toMatchObject({ status: 'ready', processing_stage: 'duplicate', duplicate_of: original, passage_count: 0, qa_count: 0 });
    expect((await waitForFile(api, again.body.file_ids[1])).body).toMatchObject({ status: 'ready', passage_count: 1 });

    const ask = await api.post('/api/v2/chat/ask/', { question: 'Is customer data encrypted at rest?' });
    expect(ask.body.sources.length).toBeGreaterThan(0);
    expect(ask.body.sources.every((s: { file_id: number }) => s.file_id !== copy)).toBe(true);

    // The original deleted: its copy becomes the evidence (read again), not a duplicate of nothing.
    const removed = await call(service.base, key, 'DELETE', `/api/v2/repository/files/${original}/`);
    expect(removed.body).toMatchObject({ id: original, deleted: true, requeued_duplicates: [copy] });
    const promoted = (await waitForFile(api, copy)).body;
    expect(promoted).toMatchObject({ status: 'ready', passage_count: expect.any(Number) });
    expect(promoted.passage_count).toBeGreaterThan(0);
    expect(promoted.duplicate_of).toBeUndefined();
    const askAgain = await api.post('/api/v2/chat/ask/', { question: 'Is customer data encrypted at rest?' });
    expect(askAgain.body.sources.some((s: { file_id: number }) => s.file_id === copy)).toBe(true);

    // Another organisation's identical upload is its own evidence.
    const other = client(service, await service.key({ org: 'globex', user: 'gus' }));
    const theirs = await other.post('/api/v2/repository/files/', files(['security.txt', KB_TEXT, 'text/plain']));
    expect(theirs.body.duplicates).toBeUndefined();
    expect((await waitForFile(other, theirs.body.file_ids[0])).body).toMatchObject({ status: 'ready', passage_count: expect.any(Number) });
  });
});
