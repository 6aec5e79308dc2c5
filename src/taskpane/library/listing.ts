/**
 * The library's file list, kept up to date: one query listed now (or after a pause while the analyst
 * types), then again while any of its files is still processing. Starting another listing, or stopping,
 * drops the one before it: no answer to an old query is reported.
 */
import type { RepositoryFile, RepositoryListQuery } from '../../api/schemas';
import type { TaskpaneApi } from '../types';
import { busyStatus, type FilePage } from './state';

export interface ListingReport {
  page: (page: FilePage) => void;
  /** `first`: the first reading of this query failed (there is no list), else a refresh did (the last one stays). */
  error: (e: unknown, first: boolean) => void;
}

export interface ListingTiming {
  /** Wait before the first request (a pause in typing). */
  delayMs: number;
  /** Refresh interval while files are processing; a failed refresh waits twice as long. */
  pollMs: number;
}

export function createListing(report: ListingReport) {
  let current: { ctl: AbortController; timer: ReturnType<typeof setTimeout> | undefined } | null = null;

  function stop(): void {
    if (!current) return;
    clearTimeout(current.timer);
    current.ctl.abort();
    current = null;
  }

  function start(client: Pick<TaskpaneApi, 'listRepositoryFiles'>, query: RepositoryListQuery, timing: ListingTiming): void {
    stop();
    const ctl = new AbortController();
    const run: NonNullable<typeof current> = { ctl, timer: undefined };
    current = run;
    const load = async (first: boolean) => {
      let results: RepositoryFile[];
      try {
        const r = await client.listRepositoryFiles(query, { signal: ctl.signal });
        if (ctl.signal.aborted) return;
        results = r.results;
        report.page({ count: r.count, results, hasNext: r.next !== null });
      } catch (e) {
        if (ctl.signal.aborted) return;
        report.error(e, first);
        // Keep watching through a blip while files are still processing.
        if (!first) run.timer = setTimeout(() => void load(false), timing.pollMs * 2);
        return;
      }
      if (results.some(busyStatus)) run.timer = setTimeout(() => void load(false), timing.pollMs);
    };
    run.timer = setTimeout(() => void load(true), timing.delayMs);
  }

  return { start, stop };
}

export type Listing = ReturnType<typeof createListing>;
