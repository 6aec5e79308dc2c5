/**
 * The reader pool's queue: a questionnaire being read (someone waits for its questions) goes ahead of
 * library files queued for ingestion, and questionnaires keep their own order.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ReaderSandbox } from '../../../src/service/sandbox';

const encode = (text: string) => new TextEncoder().encode(text);
/** Enough text to keep the one reader busy while the other tasks are queued behind it. */
const LARGE = encode(Array.from({ length: 20_000 }, (_, i) => `Control ${i}: data is encrypted at rest and in transit.`).join('\n\n'));
const SMALL = encode('# Encryption\n\nData is encrypted at rest with AES-256.');
const QUESTIONNAIRE = (n: number) => encode(`Question,Answer\nQuestion ${n}: do you encrypt data at rest?,\n`);

describe('the reader pool queue', () => {
  let sandbox: ReaderSandbox | null = null;
  afterEach(async () => {
    await sandbox?.close();
    sandbox = null;
  });

  it('reads a questionnaire before library files queued earlier, and questionnaires in turn', async () => {
    sandbox = new ReaderSandbox({ workers: 1 });
    // The one reader ready, so the large file runs at once and what follows waits.
    await sandbox.extract(SMALL, 'warm-up.md');
    const finished: string[] = [];
    const track = (name: string, read: Promise<unknown>) =>
      read.then(
        () => finished.push(name),
        () => finished.push(`${name} (failed)`),
      );
    await Promise.all([
      track('running library file', sandbox.extract(LARGE, 'large.md')),
      track('queued library file 1', sandbox.extract(SMALL, 'one.md')),
      track('queued library file 2', sandbox.extract(SMALL, 'two.md')),
      track('questionnaire 1', sandbox.detect(QUESTIONNAIRE(1), 'first.csv')),
      track('questionnaire 2', sandbox.detect(QUESTIONNAIRE(2), 'second.csv')),
    ]);
    expect(finished).toEqual(['running library file', 'questionnaire 1', 'questionnaire 2', 'queued library file 1', 'queued library file 2']);
  });
});
