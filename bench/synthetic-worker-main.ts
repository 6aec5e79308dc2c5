/** The body of bench/synthetic-worker.mjs: `{ d }` in, document `d` with its prepared index entries out. */
import { parentPort, workerData } from 'node:worker_threads';
import { indexEntries } from '../src/service/knowledge/entries';
import { stateAt, syntheticDoc } from './synthetic';

const vocabulary = (workerData as { vocabulary: string[] }).vocabulary;
parentPort!.on('message', ({ d }: { d: number }) => {
  const doc = syntheticDoc(vocabulary, d, stateAt(d));
  parentPort!.postMessage({ d, doc: { ...doc, prepared_index: indexEntries(doc) } });
});
