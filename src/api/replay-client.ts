/**
 * The client's methods for extension "answers.replay" (./replay.ts): start a replay of the answer library
 * on past questionnaires, list the kept runs, read one, wait for one to finish. Apart from ./client.ts
 * like ./library-client.ts, on the client's transport (`client.extensionTransport`).
 */
import { checkInput, digitsId, withQuery } from './encode';
import type { ExtensionTransport } from './library-client';
import { ROUTES } from './paths';
import {
  ReplayListQuery,
  ReplayRun,
  ReplayRunPage,
  ReplayStart,
  type ReplayListQuery as ListQuery,
  type ReplayRun as Run,
  type ReplayStart as Start,
} from './replay';
import type { Paginated } from './schemas';
import type { ReplayRunSummary } from './replay';

export interface ReplayRequestOptions {
  signal?: AbortSignal;
}

const EP = { start: ROUTES.startLibraryReplay, list: ROUTES.listLibraryReplays, get: ROUTES.getLibraryReplay } as const;

export class ReplayClient {
  constructor(private readonly t: ExtensionTransport) {}

  /** Starts a run in the background; it comes back queued. */
  start(input: Start = {}, opts: ReplayRequestOptions = {}): Promise<Run> {
    return run(() => {
      const body = JSON.stringify(checkInput(ReplayStart, input, 'replay request'));
      return this.t.call({
        method: 'POST',
        endpoint: EP.start,
        url: this.t.url(EP.start),
        schema: ReplayRun,
        signal: opts.signal,
        body,
        contentType: 'application/json',
      });
    });
  }

  /** The kept runs, newest first, without their details. */
  list(q: ListQuery = {}, opts: ReplayRequestOptions = {}): Promise<Paginated<ReplayRunSummary>> {
    return run(() => {
      const url = withQuery(this.t.url(EP.list), checkInput(ReplayListQuery, q, 'replay list query'));
      return this.t.call({ method: 'GET', endpoint: EP.list, url, schema: ReplayRunPage, signal: opts.signal });
    });
  }

  get(id: number | string, opts: ReplayRequestOptions = {}): Promise<Run> {
    return run(() =>
      this.t.call({ method: 'GET', endpoint: EP.get, url: this.t.url(EP.get, digitsId(id, 'replay run')), schema: ReplayRun, signal: opts.signal }),
    );
  }

  /** Reads the run until it is done or failed (every `intervalMs`), or the signal aborts. */
  async wait(id: number, opts: ReplayRequestOptions & { intervalMs?: number } = {}): Promise<Run> {
    for (;;) {
      const current = await this.get(id, opts);
      if (current.status === 'done' || current.status === 'failed') return current;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, opts.intervalMs ?? 500);
        opts.signal?.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            reject(opts.signal!.reason ?? new Error('aborted'));
          },
          { once: true },
        );
      });
    }
  }
}

/** Argument errors become rejections, as in the client. */
function run<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return fn();
  } catch (e) {
    return Promise.reject(e);
  }
}
