// The body of the WAL checkpointing thread (see checkpointer.ts). Plain JavaScript on purpose: it needs
// only better-sqlite3, and loading the TypeScript loader into one more thread would cost more than the
// thread itself. It copies the log into the database file with PASSIVE checkpoints, which never wait
// for the writer nor for readers, on its own connection: the copying and the fsyncs happen here, not in
// the thread that writes (and serves requests).
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

/** @type {{ path: string, settleMs: number, idleExitMs: number }} */
const { path, settleMs, idleExitMs } = workerData;
const db = new Database(path, { fileMustExist: true });
// PASSIVE checkpoints never call the busy handler; this only covers opening the connection.
db.pragma('busy_timeout = 1000');
db.pragma('synchronous = NORMAL');
// This connection never writes, so it never checkpoints on its own account.
db.pragma('wal_autocheckpoint = 0');

let settle = null;
let idle = null;

function checkpoint() {
  try {
    // busy: another connection (the writer's own fallback) was checkpointing; log: frames in the WAL;
    // checkpointed: how many of them are now in the database file.
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ log: row.log, checkpointed: row.checkpointed, busy: row.busy });
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
}

function stop() {
  clearTimeout(settle);
  clearTimeout(idle);
  db.close();
  parentPort.close();
}

// The writer asks after every so many rows. Once it stops asking, what it wrote last is copied too;
// after a quiet while the thread ends, and the next large write starts another.
parentPort.on('message', (message) => {
  if (message === 'stop') return stop();
  if (message !== 'checkpoint') return;
  checkpoint();
  clearTimeout(settle);
  clearTimeout(idle);
  settle = setTimeout(checkpoint, settleMs);
  idle = setTimeout(stop, idleExitMs);
});

idle = setTimeout(stop, idleExitMs);
