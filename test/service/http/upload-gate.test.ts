/** Upload turns: shares per key, per organisation and per process; waiting first come first served; refusals. */
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/service/http/errors';
import { UploadGate } from '../../../src/service/http/upload-gate';

const shares = { perKey: 2, perOrg: 3, total: 4, maxWaitMs: 60_000, maxWaitingPerKey: 2 };
const settled = async (p: Promise<unknown>) => {
  let state = 'pending';
  p.then(
    () => (state = 'granted'),
    () => (state = 'refused'),
  );
  await new Promise((r) => setTimeout(r, 0));
  return state;
};

describe('UploadGate', () => {
  it('a key at its share waits while a colleague and another organisation go at once', async () => {
    const gate = new UploadGate(shares);
    await gate.acquire(1, 10);
    await gate.acquire(1, 10);
    const third = gate.acquire(1, 10);
    expect(await settled(third)).toBe('pending');
    expect(await settled(gate.acquire(1, 11))).toBe('granted');
    expect(await settled(gate.acquire(2, 20))).toBe('granted');
    expect(gate.inFlight).toBe(4);
    expect(gate.queued).toBe(1);
  });

  it('an organisation at its share waits, whichever of its keys asks', async () => {
    const gate = new UploadGate(shares);
    await gate.acquire(1, 10);
    await gate.acquire(1, 11);
    await gate.acquire(1, 12);
    expect(await settled(gate.acquire(1, 13))).toBe('pending');
    expect(await settled(gate.acquire(2, 20))).toBe('granted');
  });

  it('a released slot goes to the oldest waiting upload that may go', async () => {
    const gate = new UploadGate({ ...shares, perOrg: 4 });
    const a1 = await gate.acquire(1, 10);
    await gate.acquire(1, 10);
    const waitingSameKey = gate.acquire(1, 10);
    await gate.acquire(1, 11);
    await gate.acquire(1, 11);
    // The process is full now; the next asker waits behind the first.
    const waitingOther = gate.acquire(2, 20);
    a1();
    // Key 10's waiting upload is older and may go again (key 10 has one slot free).
    expect(await settled(waitingSameKey)).toBe('granted');
    expect(await settled(waitingOther)).toBe('pending');
  });

  it('refuses with 429 and Retry-After when a key has too many waiting, or the wait runs out, or the client left', async () => {
    const gate = new UploadGate({ ...shares, maxWaitMs: 50 });
    await gate.acquire(1, 10);
    await gate.acquire(1, 10);
    const w1 = gate.acquire(1, 10);
    const w2 = gate.acquire(1, 10);
    const tooMany = await gate.acquire(1, 10).catch((e: unknown) => e);
    expect(tooMany).toBeInstanceOf(HttpError);
    expect((tooMany as HttpError).statusCode).toBe(429);
    expect((tooMany as HttpError).headers['retry-after']).toBe('5');
    expect((tooMany as HttpError).message).toBe(
      'too many uploads in progress: this API key already has 2 uploads in progress (at most 2 at once); retry in a few seconds',
    );
    await expect(w1).rejects.toMatchObject({ statusCode: 429 });
    await expect(w2).rejects.toMatchObject({ statusCode: 429 });
    expect(gate.queued).toBe(0);

    const left = new AbortController();
    const w3 = gate.acquire(1, 10, left.signal);
    left.abort();
    await expect(w3).rejects.toMatchObject({ statusCode: 429 });
    expect(gate.queued).toBe(0);
  });

  it('refuses at once when waiting is turned off', async () => {
    const gate = new UploadGate({ ...shares, maxWaitMs: 0 });
    await gate.acquire(1, 10);
    await gate.acquire(1, 10);
    await expect(gate.acquire(1, 10)).rejects.toMatchObject({ statusCode: 429 });
  });

  it('a release given twice frees one slot', async () => {
    const gate = new UploadGate(shares);
    const release = await gate.acquire(1, 10);
    await gate.acquire(1, 10);
    release();
    release();
    expect(gate.inFlight).toBe(1);
  });
});
