/**
 * Who may be receiving an upload right now. Each API key has a share, each organisation a larger one,
 * and the process a cap: one client (or one organisation) holding its whole share never delays a
 * colleague's or another organisation's upload. An upload without a free slot waits its turn, first come
 * first served among those that may go, for a while; only a key or organisation with too many uploads
 * waiting, or a wait that runs out, is refused (429 with Retry-After).
 */
import { HttpError } from './errors';

export interface UploadShares {
  /** Uploads one API key may be sending at once. */
  perKey: number;
  /** Uploads one organisation may be sending at once, all its keys together. */
  perOrg: number;
  /** Uploads the process receives at once, every organisation together. */
  total: number;
  /** How long an upload waits for a slot before it is refused; 0 refuses at once. */
  maxWaitMs: number;
  /** Uploads one key may have waiting; more are refused at once. */
  maxWaitingPerKey: number;
}

export const DEFAULT_UPLOAD_SHARES: UploadShares = { perKey: 4, perOrg: 16, total: 64, maxWaitMs: 30_000, maxWaitingPerKey: 32 };

interface Waiter {
  org: number;
  key: number;
  grant: (release: () => void) => void;
  refuse: (error: HttpError) => void;
}

export class UploadGate {
  private readonly byKey = new Map<number, number>();
  private readonly byOrg = new Map<number, number>();
  private running = 0;
  private readonly waiting: Waiter[] = [];

  constructor(private readonly shares: UploadShares) {}

  /** Uploads being received now (for metrics and tests). */
  get inFlight(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /**
   * Resolves with the slot's release once the upload may be received. Rejects with 429 when the key has too
   * many waiting, the wait runs out, or `signal` aborts (the client went away) before a slot was free.
   */
  acquire(org: number, key: number, signal?: AbortSignal): Promise<() => void> {
    if (this.mayGo(org, key)) return Promise.resolve(this.take(org, key));
    const waitingForKey = this.waiting.filter((w) => w.key === key).length;
    if (this.shares.maxWaitMs <= 0 || waitingForKey >= this.shares.maxWaitingPerKey) return Promise.reject(this.refusal(org, key));
    return new Promise((resolve, reject) => {
      const leave = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
      };
      const waiter: Waiter = {
        org,
        key,
        grant: (release) => {
          leave();
          resolve(release);
        },
        refuse: (error) => {
          leave();
          reject(error);
        },
      };
      const timer = setTimeout(() => waiter.refuse(this.refusal(org, key)), this.shares.maxWaitMs);
      const onAbort = () => waiter.refuse(this.refusal(org, key));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  private mayGo(org: number, key: number): boolean {
    return this.running < this.shares.total && (this.byOrg.get(org) ?? 0) < this.shares.perOrg && (this.byKey.get(key) ?? 0) < this.shares.perKey;
  }

  private take(org: number, key: number): () => void {
    this.running++;
    this.byOrg.set(org, (this.byOrg.get(org) ?? 0) + 1);
    this.byKey.set(key, (this.byKey.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      decrement(this.byOrg, org);
      decrement(this.byKey, key);
      this.admitWaiting();
    };
  }

  /** The oldest waiting uploads whose key and organisation now have room go next. */
  private admitWaiting(): void {
    for (let i = 0; i < this.waiting.length && this.running < this.shares.total; ) {
      const waiter = this.waiting[i]!;
      if (this.mayGo(waiter.org, waiter.key)) waiter.grant(this.take(waiter.org, waiter.key));
      else i++;
    }
  }

  private refusal(org: number, key: number): HttpError {
    const { perKey, perOrg, total } = this.shares;
    const whose =
      (this.byKey.get(key) ?? 0) >= perKey
        ? `this API key already has ${uploads(perKey)} in progress (at most ${perKey} at once)`
        : (this.byOrg.get(org) ?? 0) >= perOrg
          ? `this organization already has ${uploads(perOrg)} in progress (at most ${perOrg} at once)`
          : `the service is receiving ${uploads(total)} (at most ${total} at once)`;
    return new HttpError(429, `too many uploads in progress: ${whose}; retry in a few seconds`, { 'retry-after': '5' });
  }
}

const uploads = (n: number) => `${n} upload${n === 1 ? '' : 's'}`;

function decrement(counts: Map<number, number>, id: number): void {
  const left = (counts.get(id) ?? 1) - 1;
  if (left > 0) counts.set(id, left);
  else counts.delete(id);
}
