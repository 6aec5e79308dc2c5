/**
 * A refused upload on its own: remembered per key in storage, and judged by whether a read with the same
 * key works (the real ApiClient over loopback HTTP to the FakeService).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/errors';
import { clearUploadBlock, judgeUploadRefusal, readUploadBlock, writeUploadBlock } from '../../../src/taskpane/connection/upload-block';
import { STORAGE_KEYS } from '../../../src/taskpane/settings-store';
import { realClient } from '../client';
import { FakeService } from '../fake-service';
import { memoryStorage } from '../memory-workbook';

let fake: FakeService;
beforeAll(async () => (fake = await FakeService.start()));
afterAll(() => fake.close());
afterEach(() => fake.clearFailures());

const client = () => realClient({ baseUrl: fake.origin, apiKey: 'k' });
const forbidden = (serverMessage: string) => new ApiError({ kind: 'http', status: 403, serverMessage, message: 'Forbidden' });

describe('remembered upload block', () => {
  it('is kept for its own key only, and cleared on request', () => {
    const storage = memoryStorage();
    const block = { reason: 'Uploads are disabled.', readOnly: true, kind: 'read-only' as const };
    writeUploadBlock(storage, 'key-a', block);
    expect(storage.getItem(STORAGE_KEYS.uploadBlocked)).not.toContain('key-a'); // a fingerprint, not the key
    expect(readUploadBlock(storage, 'key-a')).toEqual(block);
    expect(readUploadBlock(storage, 'key-b')).toBeNull();
    expect(readUploadBlock(storage, '')).toBeNull();
    clearUploadBlock(storage);
    expect(readUploadBlock(storage, 'key-a')).toBeNull();
  });

  it('reads an older entry without a kind, and ignores one it cannot parse', () => {
    const storage = memoryStorage();
    writeUploadBlock(storage, 'k', { reason: 'x', readOnly: false, kind: 'refused' });
    const stored = JSON.parse(storage.getItem(STORAGE_KEYS.uploadBlocked)!) as Record<string, unknown>;
    storage.setItem(STORAGE_KEYS.uploadBlocked, JSON.stringify({ ...stored, kind: undefined, readOnly: true }));
    expect(readUploadBlock(storage, 'k')).toEqual({ reason: 'x', readOnly: true, kind: 'read-only' });
    storage.setItem(STORAGE_KEYS.uploadBlocked, '{not json');
    expect(readUploadBlock(storage, 'k')).toBeNull();
  });
});

describe('judging a refused upload', () => {
  it('a read-only key, as the service says, is not probed', async () => {
    fake.requests.length = 0;
    const block = await judgeUploadRefusal(client(), forbidden('this API key is read-only'));
    expect(block).toMatchObject({ readOnly: true, kind: 'read-only' });
    expect(fake.requests).toHaveLength(0);
  });

  it('reads work: the key lacks upload rights; reads refused too: the key is not valid', async () => {
    expect((await judgeUploadRefusal(client(), forbidden('not allowed'))).kind).toBe('refused');
    fake.fail('GET', /repository\/files/, { status: 403, json: { error: 'invalid API key' } });
    expect((await judgeUploadRefusal(client(), forbidden('not allowed'))).kind).toBe('invalid');
  });

  it('without a client nothing is probed: only refused', async () => {
    expect(await judgeUploadRefusal(null, forbidden('no'))).toMatchObject({ readOnly: false, kind: 'refused' });
  });
});
