/**
 * Body of a reader worker thread: announces it is ready (its modules loaded, so the time budget only
 * counts reading), then runs one task per message and answers with its result or its error.
 */
import { parentPort } from 'node:worker_threads';
import { lowerThreadPriority } from './priority';
import { TASKS, type TaskInput, type TaskName } from './tasks';

export interface TaskRequest {
  id: number;
  task: TaskName;
  input: TaskInput;
}

export type TaskReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: { name: string; message: string; stack?: string } };

const port = parentPort;
if (!port) throw new Error('worker-main.ts runs only in a worker thread');

lowerThreadPriority();
port.on('message', async (request: TaskRequest) => {
  let reply: TaskReply;
  try {
    reply = { id: request.id, ok: true, value: await TASKS[request.task](request.input) };
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    reply = { id: request.id, ok: false, error: { name: e.name, message: e.message, stack: e.stack } };
  }
  port.postMessage(reply);
});
port.postMessage('ready');
