/**
 * The index's upkeep after bulk writes, in the background of the process that wrote, never inside a
 * search: ANALYZE once a table (and the postings with it) has grown by a fifth since this process last
 * analysed it (a planner that still believes an organisation has a few hundred rows reads the
 * organisation's whole row list for a search of a million). Autovacuum does it too, but only after a
 * minute and a tenth of the table: during and right after an ingestion of a million passages, that is late.
 */
import type { IndexKind } from '../../knowledge-index';

interface Queryable {
  query(sql: string): Promise<unknown>;
}

/** Rows written before the first ANALYZE of a table, and the growth that calls for the next. */
const FIRST_ANALYZE_ROWS = 5_000;
const GROWTH = 0.2;

const TABLES: Record<IndexKind, string> = { passages: 'kb_passages', qa: 'kb_qa' };

export class IndexUpkeep {
  private readonly written: Record<IndexKind, number> = { passages: 0, qa: 0 };
  private readonly analysed: Record<IndexKind, number> = { passages: 0, qa: 0 };
  private running: Promise<void> = Promise.resolve();
  private busy = false;
  /** The last upkeep's failure (tests, logs); upkeep failing never fails a write. */
  lastError: string | null = null;

  constructor(
    private readonly db: Queryable,
    private readonly firstAnalyzeRows = FIRST_ANALYZE_ROWS,
  ) {}

  /** After a committed write of `rows` rows of `kind`: starts the upkeep when it is due and none is running. */
  noteWrite(kind: IndexKind, rows: number): void {
    this.written[kind] += rows;
    if (this.busy || this.written[kind] < Math.max(this.firstAnalyzeRows, this.analysed[kind] * GROWTH)) return;
    this.busy = true;
    const rowsNow = this.analysed[kind] + this.written[kind];
    this.written[kind] = 0;
    this.running = this.run(kind)
      .then(() => {
        this.analysed[kind] = rowsNow;
        this.lastError = null;
      })
      .catch((error: unknown) => {
        this.lastError = error instanceof Error ? error.message : String(error);
      })
      .finally(() => {
        this.busy = false;
      });
  }

  /** Resolves when the upkeep under way (if any) is done (tests, benches). */
  settled(): Promise<void> {
    return this.running;
  }

  private async run(kind: IndexKind): Promise<void> {
    // The postings grow with the rows (both kinds share the table; ANALYZE samples, so this stays cheap).
    await this.db.query(`ANALYZE ${TABLES[kind]}, kb_postings`);
  }
}
