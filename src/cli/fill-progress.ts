/**
 * Progress while answers are generated: a redrawn bar on a terminal, plain lines otherwise (logs,
 * pipes, CI), so the output is readable in both.
 */
import type { Progress } from '../api/schemas';

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface ProgressDisplay {
  update(p: Progress): void;
  /** Ends the bar's line (a terminal) so later output starts on a fresh line. */
  done(): void;
}

const BAR_WIDTH = 24;

/** "~14 s left", "~3 min left", or '' while there is no rate to extrapolate from. */
export function timeLeft(received: number, expected: number, elapsedMs: number): string {
  if (received <= 0 || expected <= received || elapsedMs <= 0) return '';
  const seconds = Math.ceil(((expected - received) * elapsedMs) / received / 1000);
  return seconds < 90 ? `~${seconds} s left` : `~${Math.round(seconds / 60)} min left`;
}

export function progressBar(p: Progress, eta: string): string {
  const expected = Math.max(0, p.answers_expected);
  const ratio = expected > 0 ? Math.min(1, p.answers_received / expected) : p.status === 'complete' ? 1 : 0;
  const filled = Math.round(ratio * BAR_WIDTH);
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`;
  return `${bar} ${p.answers_received}/${expected} answers${eta ? ` · ${eta}` : ''}`;
}

export function createProgressDisplay(stream: ProgressStream, now: () => number = Date.now): ProgressDisplay {
  const started = now();
  let lastLine = '';
  let lastPlainAt = 0;
  let drawn = false;
  const eta = (p: Progress) => timeLeft(p.answers_received, p.answers_expected, now() - started);
  return {
    update(p) {
      if (stream.isTTY) {
        const line = progressBar(p, p.status === 'complete' ? '' : eta(p));
        // A pseudo-terminal may report 0 columns (no size set): then assume the usual 80.
        const width = (stream.columns && stream.columns > 1 ? stream.columns : 80) - 1;
        stream.write(`\r${line.slice(0, width).padEnd(Math.min(width, lastLine.length))}`);
        lastLine = line;
        drawn = true;
        return;
      }
      const line = `Answers ${p.answers_received}/${p.answers_expected} (${p.status})`;
      const t = now();
      // One line per change, at most one a second unless the state itself changed.
      if (line === lastLine) return;
      if (p.status !== 'complete' && t - lastPlainAt < 1000 && lastLine.endsWith(`(${p.status})`)) return;
      stream.write(`${line}\n`);
      lastLine = line;
      lastPlainAt = t;
    },
    done() {
      if (drawn) stream.write('\n');
      drawn = false;
    },
  };
}
