/**
 * Reader threads yield the CPU to the request thread. On two cores the request thread answers chat and
 * writes the knowledge index while readers prepare the next files; sharing the cores evenly with them
 * made both wait (a chat answer, and the writer every later file waits for). With the readers a few
 * `nice` steps lower, the request thread runs whenever it has work and the readers take the rest.
 */
import os from 'node:os';
import { readlinkSync } from 'node:fs';

/** How many `nice` steps below the request thread a reader runs (Linux weighs 10 steps about 1:9). */
export const READER_NICENESS = 10;

/**
 * Lowers the calling thread's priority by `steps` (at most to 19) and returns its thread id, or null
 * where that cannot be done for one thread alone: only Linux keeps a niceness per thread, and elsewhere
 * `setpriority` would slow the whole service.
 */
export function lowerThreadPriority(steps = READER_NICENESS): number | null {
  let threadId: number;
  try {
    threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    return null;
  }
  if (!Number.isInteger(threadId) || threadId <= 0) return null;
  try {
    os.setPriority(threadId, Math.min(19, os.getPriority(threadId) + steps));
    return threadId;
  } catch {
    // A sandbox that refuses setpriority: the readers then share the CPU evenly, as before.
    return null;
  }
}
