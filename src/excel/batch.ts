/**
 * Sending many commands in few round trips: operations are packed into chunks under a payload
 * budget, one `context.sync()` per chunk. A chunk Excel rejects as too large is halved and retried;
 * the same halving isolates a cell Excel refuses (a locked cell on a sheet protected meanwhile), so
 * one bad cell fails alone instead of failing the fill.
 */
import type { CellRef } from '../fill';
import { officeErrorCode } from './office';

export interface CellFailure {
  tab: string;
  address: string;
  reason: string;
}

export interface BatchOp {
  /** Estimated request bytes of this op's commands. */
  bytes: number;
  /** Cells this op stands for, for failure reports. */
  cells: CellRef[];
  /** Queues the op's commands on the context (no sync). */
  queue(context: Excel.RequestContext): void;
  /** Two ops doing the same work in halves, or null when it cannot be split further. */
  split(): [BatchOp, BatchOp] | null;
  /** Runs after the sync that carried this op succeeded (read loaded values here). */
  after?(): void;
}

export interface BatchOptions {
  budgetBytes: number;
  /** Queued first in every chunk (e.g. suspend calculation until the chunk's sync). */
  beforeChunk?: (context: Excel.RequestContext) => void;
  /** Counts round trips. */
  onSync?: () => void;
}

export interface BatchResult {
  succeeded: BatchOp[];
  failed: CellFailure[];
}

/** Errors that concern the commands in the chunk, so a smaller chunk may succeed. */
const SPLITTABLE = new Set(['RequestPayloadSizeLimitExceeded', 'ResponsePayloadSizeLimitExceeded', 'AccessDenied', 'InvalidOperation', 'InvalidArgument']);

function reasonFor(code: string, error: unknown): string {
  switch (code) {
    case 'AccessDenied':
      return 'Excel refused the change: the sheet is protected and the cell is locked.';
    case 'RequestPayloadSizeLimitExceeded':
      return 'The value is too large to send to Excel in one request.';
    case 'ResponsePayloadSizeLimitExceeded':
      return 'The cell holds more than Excel can return in one response.';
    default:
      return `Excel refused the change (${code}): ${error instanceof Error ? error.message : String(error)}`;
  }
}

function splitToBudget(op: BatchOp, budget: number): BatchOp[] {
  if (op.bytes <= budget) return [op];
  const halves = op.split();
  if (!halves) return [op];
  return [...splitToBudget(halves[0], budget), ...splitToBudget(halves[1], budget)];
}

export async function runBatched(context: Excel.RequestContext, ops: readonly BatchOp[], options: BatchOptions): Promise<BatchResult> {
  const result: BatchResult = { succeeded: [], failed: [] };
  const pieces = ops.flatMap((op) => splitToBudget(op, options.budgetBytes));
  const chunks: BatchOp[][] = [];
  let current: BatchOp[] = [];
  let bytes = 0;
  for (const op of pieces) {
    if (current.length > 0 && bytes + op.bytes > options.budgetBytes) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(op);
    bytes += op.bytes;
  }
  if (current.length > 0) chunks.push(current);

  const send = async (chunk: BatchOp[]): Promise<void> => {
    options.beforeChunk?.(context);
    for (const op of chunk) op.queue(context);
    try {
      options.onSync?.();
      await context.sync();
      result.succeeded.push(...chunk);
      for (const op of chunk) op.after?.();
    } catch (error) {
      const code = officeErrorCode(error);
      if (!code || !SPLITTABLE.has(code)) throw error;
      if (chunk.length > 1) {
        const middle = Math.ceil(chunk.length / 2);
        await send(chunk.slice(0, middle));
        await send(chunk.slice(middle));
        return;
      }
      const halves = chunk[0]!.split();
      if (halves) {
        await send([halves[0]]);
        await send([halves[1]]);
        return;
      }
      const reason = reasonFor(code, error);
      for (const cell of chunk[0]!.cells) result.failed.push({ ...cell, reason });
    }
  };
  for (const chunk of chunks) await send(chunk);
  return result;
}
