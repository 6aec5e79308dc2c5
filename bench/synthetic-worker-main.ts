/** The body of bench/synthetic-worker.mjs: `{ d }` in, document `d` as a reader thread sends it back out. */
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThreadPriority } from '../src/service/sandbox/priority';
import { readDocument } from '../src/service/sandbox/tasks';
import { stateAt, syntheticDoc } from './synthetic';

// As the service's reader threads: the writing thread runs first.
lowerThreadPriority();
const vocabulary = (workerData as { vocabulary: string[] }).vocabulary;
parentPort!.on('message', ({ d }: { d: number }) => {
  parentPort!.postMessage({ d, doc: readDocument(syntheticDoc(vocabulary, d, stateAt(d)), `synthetic-${d}.txt`) });
});
