/**
 * Reader threads run below the request thread (Linux keeps a niceness per thread): while a large upload
 * is read, chat answers and index writes on the request thread go first.
 */
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { ReaderSandbox } from '../../../src/service/sandbox';
import { READER_NICENESS } from '../../../src/service/sandbox/priority';

/** Each thread of this process and its niceness, from /proc. */
function threadNiceness(): Map<number, number> {
  const threads = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      // Fields after the parenthesised command name begin with the state (field 3); nice is field 19.
      const fields = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      threads.set(Number(tid), Number(fields[16]));
    } catch {
      // The thread ended between listing and reading.
    }
  }
  return threads;
}

describe.runIf(process.platform === 'linux')('reader threads yield the CPU to the request thread', () => {
  let sandbox: ReaderSandbox | null = null;
  afterEach(async () => {
    await sandbox?.close();
    sandbox = null;
  });

  it('each reader runs READER_NICENESS steps below the request thread, which keeps its own', async () => {
    const before = threadNiceness();
    const mine = os.getPriority();
    expect(before.get(process.pid)).toBe(mine);
    expect([...before.values()].filter((n) => n !== mine)).toEqual([]);

    sandbox = new ReaderSandbox({ workers: 2 });
    // Two files at once, so both readers start.
    const text = new TextEncoder().encode('# Encryption\n\nData is encrypted at rest with AES-256.');
    const read = await Promise.all([sandbox.extract(text, 'a.md'), sandbox.extract(text, 'b.md')]);
    expect(read.map((doc) => doc.prepared_index?.passages.length)).toEqual([1, 1]);
    expect(sandbox.workerCount).toBe(2);

    // The second reader may still be loading its modules (one took both files): it lowers itself before it is ready.
    const readerNiceness = Math.min(19, mine + READER_NICENESS);
    const lowered = (threads: Map<number, number>) => [...threads].filter(([tid, nice]) => !before.has(tid) && nice === readerNiceness);
    let after = threadNiceness();
    for (const until = Date.now() + 30_000; lowered(after).length < 2 && Date.now() < until; after = threadNiceness()) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(lowered(after)).toHaveLength(2);
    expect(after.get(process.pid)).toBe(mine);
    // Nothing else was lowered: the threads the process had before keep their niceness.
    for (const [tid, nice] of before) if (after.has(tid)) expect(after.get(tid)).toBe(nice);
  });
});
