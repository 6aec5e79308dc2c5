/**
 * What an operator scrapes (`GET /metrics`, Prometheus text format): requests and their latency by route,
 * uploads being received and waiting, jobs by state, passages indexed, answers by method and trust, and
 * language-model requests and tokens. One registry per service instance, so several in one process
 * (tests) never mix their counts.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

export interface JobCount {
  kind: string;
  state: string;
  count: number;
}

/** Read at scrape time, so the figures are the database's, shared by every process on PostgreSQL. */
export interface MetricSources {
  jobCounts(): Promise<JobCount[]>;
  uploads(): { receiving: number; waiting: number };
}

export interface StoredAnswerFacts {
  method?: string | null;
  evaluation?: unknown;
}

export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly requests: Histogram<'method' | 'route' | 'status'>;
  private readonly passages: Counter;
  private readonly filesIndexed: Counter<'outcome'>;
  private readonly answers: Counter<'method' | 'trust'>;
  private readonly modelRequests: Counter;
  private readonly modelTokens: Counter;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    this.requests = new Histogram({
      name: 'qfill_http_request_duration_seconds',
      help: 'HTTP requests by method, route and status, and how long they took',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.passages = new Counter({ name: 'qfill_passages_indexed_total', help: 'Passages written to the knowledge index', registers });
    this.filesIndexed = new Counter({
      name: 'qfill_files_processed_total',
      help: 'Uploaded files processed, by outcome (ready, failed)',
      labelNames: ['outcome'],
      registers,
    });
    this.answers = new Counter({ name: 'qfill_answers_total', help: 'Answers generated, by method and trust', labelNames: ['method', 'trust'], registers });
    this.modelRequests = new Counter({
      name: 'qfill_model_requests_total',
      help: 'Requests sent to the language model (retries and repairs included)',
      registers,
    });
    this.modelTokens = new Counter({ name: 'qfill_model_tokens_total', help: 'Tokens the language model reported using', registers });
    new Gauge({
      name: 'qfill_uploads_receiving',
      help: 'Upload requests being received now (this process)',
      registers,
      collect() {
        this.set(sources.uploads().receiving);
      },
    });
    new Gauge({
      name: 'qfill_uploads_waiting',
      help: 'Upload requests waiting for their turn (this process)',
      registers,
      collect() {
        this.set(sources.uploads().waiting);
      },
    });
    new Gauge({
      name: 'qfill_jobs',
      help: 'Background jobs by kind and state (queued, running, done, failed), from the database',
      labelNames: ['kind', 'state'],
      registers,
      async collect() {
        this.reset();
        for (const { kind, state, count } of await sources.jobCounts()) this.set({ kind, state }, count);
      },
    });
  }

  request(method: string, route: string, status: number, seconds: number): void {
    this.requests.observe({ method, route, status: String(status) }, seconds);
  }

  fileProcessed(outcome: 'ready' | 'failed', passages = 0): void {
    this.filesIndexed.inc({ outcome });
    if (passages > 0) this.passages.inc(passages);
  }

  answerStored(answer: StoredAnswerFacts): void {
    const evaluation = (answer.evaluation ?? {}) as { trust?: unknown; method?: unknown; llm_usage?: { requests?: unknown; tokens?: unknown } };
    const method = String(answer.method ?? evaluation.method ?? 'unknown');
    this.answers.inc({ method, trust: typeof evaluation.trust === 'string' ? evaluation.trust : 'unknown' });
    const usage = evaluation.llm_usage;
    if (typeof usage?.requests === 'number' && usage.requests > 0) this.modelRequests.inc(usage.requests);
    if (typeof usage?.tokens === 'number' && usage.tokens > 0) this.modelTokens.inc(usage.tokens);
  }

  async text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
