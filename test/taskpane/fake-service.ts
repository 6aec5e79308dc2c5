/**
 * A small v2 service on real loopback HTTP for the task pane tests: in-memory state, schema-valid
 * answers, every request recorded, and scripted failures (any status, or a dropped connection) per
 * route. The panes talk to it through the real ApiClient.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ChatSession, Progress, QuestionWithAnswers, RepositoryFile, Structure } from '../../src/api/schemas';
import { FakeLibrary } from './fake-library';
import { FakeReplay } from './fake-replay';

export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Failure = { status: number; json?: unknown; headers?: Record<string, string> } | 'reset';

interface Rule {
  method: string;
  path: RegExp;
  reply: Failure;
  times: number;
}

const NOW = '2025-01-01T00:00:00Z';

export function repositoryFile(id: number, name: string, patch: Partial<RepositoryFile> = {}): RepositoryFile {
  return {
    id,
    original_filename: name,
    status: 'ready',
    status_display: 'Ready',
    processing_stage: 'done',
    processing_percent: 100,
    document_type: 'documentation',
    file_format: 'pdf',
    source_provider: null,
    created_at: NOW,
    tags: [],
    relevant_offerings: [],
    scope_includes_company: true,
    use_as_source: true,
    url: null,
    user: 'Analyst',
    qa_count: 0,
    data_count: 0,
    passage_count: 12,
    total_embeddings: 0,
    is_reprocessable: true,
    ...patch,
  };
}

function structureOf(questions: QuestionWithAnswers[]): Structure {
  const tabs = [...new Set(questions.map((q) => q.tab_name))];
  const trust = (t: string) => questions.filter((q) => (q.answers[0]?.evaluation as { trust?: string } | undefined)?.trust === t).length;
  return {
    tabs: tabs.map((t) => ({
      tab_name: t,
      question_count: questions.filter((q) => q.tab_name === t).length,
      needs_filling_count: questions.filter((q) => q.tab_name === t).length,
    })),
    groups: tabs.map((t, i) => ({
      tab_name: t,
      section_path: [],
      question_count: questions.filter((q) => q.tab_name === t).length,
      needs_filling_count: 0,
      answer_slots: [],
      display_order: i + 1,
      filter_counts: { approved: 0, not_approved: 0, needs_review: 0, low_trust: 0 },
    })),
    total_question_count: questions.length,
    total_needs_filling_count: questions.length,
    quick_filter_counts: {
      trustLow: trust('low'),
      trustMedium: trust('medium'),
      trustHigh: trust('high'),
      approved: 0,
      notApproved: questions.length,
      scoreLow: 0,
      scoreMedium: 0,
      scoreHigh: 0,
      needsReview: trust('low'),
      lowCoverage: 0,
    },
    avg_score: 70,
  };
}

export class FakeService {
  readonly requests: Recorded[] = [];
  private readonly rules: Rule[] = [];
  private readonly sockets = new Set<Socket>();

  // ---- state the tests set and read ----
  files: RepositoryFile[] = [];
  /** What POST /chat/ask/ answers with (besides answerText), and its trust (extension) when set. */
  askSources: Record<string, unknown>[] = [{ filename: 'security.pdf', page_number: 4, content: 'All data is encrypted at rest (AES-256).' }];
  askTrust: string | null = null;
  /** Extensions to v2 it offers (`GET /extensions/`); null: a plain v2 service, which has no such routes (404). */
  extensions: string[] | null = null;
  /** What `GET /extensions/` says writes the answers (`answering`), when set. */
  answering: unknown = undefined;
  /** The organisation's offerings, listed under the "offerings.list" extension. */
  offerings: { id: number; name: string; type: 'service' | 'product' | 'module' }[] = [];
  orgNames: string[] = [];
  /** The answer library, served under the "answers.library" extension. */
  library = new FakeLibrary();
  /** Replays of the answer library, served under the "answers.replay" extension. */
  replay = new FakeReplay();
  /** Whose key it is (`GET /keys/current/`, extension "keys.current"), per key; a key not listed is 404. */
  keyOwners = new Map<string, { organization: { id: number; name: string }; user: { id: number; name: string; role: string }; read_only: boolean }>();
  /** When set, only these keys are accepted; any other gets 403 "invalid API key" (as the real service). */
  validKeys: Set<string> | null = null;
  /** Called on every file listing: lets a test move processing forward one step per poll. */
  onList: ((files: RepositoryFile[]) => void) | null = null;
  questions: QuestionWithAnswers[] = [];
  progress: Progress = { status: 'complete', answers_expected: 0, answers_received: 0, percent: 100 };
  questionnaireId = 7;
  /** What detection wants the analyst to know, sent with the questionnaire (GET /filler/questionnaires/{id}/). */
  warnings: string[] = [];
  sessions: ChatSession[] = [];
  answerText = 'Data is encrypted at rest with AES-256.';
  private nextId = 100;

  private constructor(
    private readonly server: http.Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<FakeService> {
    const server = http.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const fake = new FakeService(server, `http://127.0.0.1:${port}`);
    server.on('connection', (s) => {
      fake.sockets.add(s);
      s.on('close', () => fake.sockets.delete(s));
    });
    server.on('request', (req, res) => void fake.handle(req, res));
    return fake;
  }

  /** The next `times` requests matching method and path get `reply` instead of the normal answer. */
  fail(method: string, path: RegExp, reply: Failure, times = 1): this {
    this.rules.push({ method, path, reply, times });
    return this;
  }

  /** Drops scripted failures not used up yet. */
  clearFailures(): void {
    this.rules.length = 0;
  }

  requestsTo(method: string, path: RegExp): Recorded[] {
    return this.requests.filter((r) => r.method === method && path.test(r.path));
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', this.origin);
    const cors = {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Headers': 'X-API-Key, Content-Type, Accept, Authorization',
      'Access-Control-Allow-Methods': 'GET, POST, PUT, DELETE, OPTIONS',
    };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors).end();
      return;
    }
    const rec: Recorded = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: Buffer.concat(chunks).toString('latin1'),
    };
    this.requests.push(rec);
    const send = (status: number, json: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'Content-Type': 'application/json', ...cors, ...headers }).end(JSON.stringify(json));
    };

    const rule = this.rules.find((r) => r.times > 0 && r.method === rec.method && r.path.test(rec.path));
    if (rule) {
      rule.times--;
      if (rule.reply === 'reset') {
        req.socket.destroy();
        return;
      }
      send(rule.reply.status, rule.reply.json ?? { error: `scripted ${rule.reply.status}` }, rule.reply.headers);
      return;
    }
    if (!rec.headers['x-api-key']) {
      send(403, { error: 'API key required' });
      return;
    }
    if (this.validKeys && !this.validKeys.has(String(rec.headers['x-api-key']))) {
      send(403, { error: 'invalid API key' });
      return;
    }
    try {
      const [status, json] = this.route(rec);
      send(status, json);
    } catch (e) {
      send(500, { error: String(e) });
    }
  }

  private route(r: Recorded): [number, unknown] {
    const p = r.path.replace(/^\/api\/v2/, '');
    const m = (re: RegExp) => p.match(re);
    if (r.method === 'GET' && p === '/repository/files/') return [200, this.listFiles(r.query)];
    const has = (name: string) => this.extensions?.includes(name) === true;
    if (r.method === 'GET' && p === '/extensions/' && this.extensions)
      return [200, { extensions: this.extensions, ...(this.answering ? { answering: this.answering } : {}) }];
    if (r.method === 'GET' && p === '/offerings/' && has('offerings.list')) return [200, { results: this.offerings }];
    if (r.method === 'GET' && p === '/keys/current/' && has('keys.current')) {
      const owner = this.keyOwners.get(String(r.headers['x-api-key']));
      return owner ? [200, owner] : [404, { error: 'no such key' }];
    }
    if (p === '/organisation/names/' && has('organisation.names')) {
      if (r.method === 'PUT') this.orgNames = (JSON.parse(r.body) as { names: string[] }).names.map((n) => n.trim()).filter(Boolean);
      return [200, { names: this.orgNames }];
    }
    if (has('answers.replay')) {
      const reply = this.replay.route(r.method, p);
      if (reply) return reply;
    }
    if (has('answers.library')) {
      const reply = this.library.route(r.method, p, r.query, r.body);
      if (reply) return reply;
    }
    const doomed = m(/^\/repository\/files\/(\d+)\/$/);
    if (r.method === 'DELETE' && doomed && has('repository.delete')) {
      const id = Number(doomed[1]);
      if (!this.files.some((f) => f.id === id)) return [404, { error: `repository file ${id} not found` }];
      this.files = this.files.filter((f) => f.id !== id);
      return [200, { id, deleted: true }];
    }
    if (r.method === 'POST' && p === '/repository/files/') {
      const names = [...r.body.matchAll(/filename="([^"]*)"/g)].map((x) => x[1]!);
      for (const name of names) {
        this.files.unshift(
          repositoryFile(++this.nextId, name, { status: 'submitted', status_display: 'Submitted', processing_stage: 'queued', processing_percent: 0 }),
        );
      }
      return [200, { count: names.length, failed: [] }];
    }
    if (r.method === 'POST' && p === '/filler/questionnaires/') {
      return [200, { file_ids: [1], questionnaire_ids: [this.questionnaireId] }];
    }
    let match = m(/^\/filler\/questionnaires\/(\d+)\/$/);
    if (r.method === 'GET' && match) {
      const file = { id: 1, original_filename: 'questionnaire.xlsx', file_format: 'excel', status: 'ready', created_at: NOW };
      return this.known(match[1]!) ?? [200, { id: this.questionnaireId, file, status: 'draft', warnings: this.warnings }];
    }
    match = m(/^\/filler\/questionnaires\/(\d+)\/answer-progress\/$/);
    if (r.method === 'GET' && match) return this.known(match[1]!) ?? [200, this.progress];
    match = m(/^\/filler\/questionnaires\/(\d+)\/answers\/$/);
    if (r.method === 'GET' && match) return this.known(match[1]!) ?? [200, this.questions];
    match = m(/^\/filler\/questionnaires\/(\d+)\/structure\/$/);
    if (r.method === 'GET' && match) return this.known(match[1]!) ?? [200, structureOf(this.questions)];
    if (r.method === 'POST' && p === '/chat/ask/') {
      return [200, { answer: this.answerText, sources: this.askSources, session_id: null, ...(this.askTrust ? { trust: this.askTrust } : {}) }];
    }
    if (r.method === 'GET' && p === '/chat/sessions/') {
      const search = (r.query.get('search') ?? '').toLowerCase();
      const pageSize = Number(r.query.get('page_size') ?? 50);
      const page = Number(r.query.get('page') ?? 1);
      const all = this.sessions.filter((s) => s.title.toLowerCase().includes(search));
      return [200, this.page(all, page, pageSize, '/api/v2/chat/sessions/')];
    }
    if (r.method === 'POST' && p === '/chat/sessions/') {
      const body = JSON.parse(r.body || '{}') as { title?: string };
      const s: ChatSession = {
        id: ++this.nextId,
        title: body.title ?? 'New Chat',
        created_at: NOW,
        updated_at: NOW,
        is_archived: false,
        message_count: 0,
        messages: [],
      };
      this.sessions.unshift(s);
      return [200, s];
    }
    match = m(/^\/chat\/sessions\/(\d+)\/$/);
    if (r.method === 'GET' && match) {
      const s = this.sessions.find((x) => x.id === Number(match![1]));
      return s ? [200, s] : [404, { error: 'session not found' }];
    }
    match = m(/^\/chat\/sessions\/(\d+)\/messages\/$/);
    if (r.method === 'POST' && match) {
      const s = this.sessions.find((x) => x.id === Number(match![1]));
      if (!s) return [404, { error: 'session not found' }];
      const body = JSON.parse(r.body) as { message: string };
      const turn = (s.messages?.length ?? 0) / 2 + 1;
      s.messages = [
        ...(s.messages ?? []),
        { id: ++this.nextId, sender: 'user', content: body.message, created_at: NOW, is_edited: false, metadata: null, sources: [] },
        {
          id: ++this.nextId,
          sender: 'assistant',
          content: `${this.answerText} (turn ${turn})`,
          created_at: NOW,
          is_edited: false,
          metadata: null,
          sources: [
            {
              id: 1,
              type: 'passage',
              relevance_score: 0.9,
              content: 'Encryption policy excerpt.',
              source_file: 'policy.md',
              page_number: 1,
              context_header: '',
              source_url: '',
            },
          ],
        },
      ];
      s.message_count = s.messages.length;
      return [200, s];
    }
    return [404, { error: `no route ${r.method} ${r.path}` }];
  }

  private known(id: string): [number, unknown] | null {
    return Number(id) === this.questionnaireId ? null : [404, { error: 'questionnaire not found' }];
  }

  private listFiles(q: URLSearchParams) {
    this.onList?.(this.files);
    let files = [...this.files];
    const search = (q.get('search') ?? '').toLowerCase();
    if (search)
      files = files.filter(
        (f) => (f.original_filename ?? '').toLowerCase().includes(search) || (f.tags ?? []).some((t) => t.name.toLowerCase().includes(search)),
      );
    const status = q.get('status');
    if (status) files = files.filter((f) => f.status === status);
    const type = q.get('document_type');
    if (type) files = files.filter((f) => f.document_type === type);
    const ordering = q.get('ordering');
    if (ordering) {
      const field = ordering.replace(/^-/, '') as keyof RepositoryFile;
      files.sort((a, b) => String(a[field] ?? '').localeCompare(String(b[field] ?? '')));
      if (ordering.startsWith('-')) files.reverse();
    }
    return this.page(files, Number(q.get('page') ?? 1), Number(q.get('page_size') ?? 50), '/api/v2/repository/files/');
  }

  private page<T>(all: T[], page: number, pageSize: number, path: string) {
    const start = (page - 1) * pageSize;
    const link = (n: number) => `${this.origin}${path}?page=${n}&page_size=${pageSize}`;
    return {
      count: all.length,
      next: start + pageSize < all.length ? link(page + 1) : null,
      previous: page > 1 ? link(page - 1) : null,
      results: all.slice(start, start + pageSize),
    };
  }
}

/** Questions on two tabs, with slots, evaluations and evidence, the shape the service sends. */
export function sampleQuestions(): QuestionWithAnswers[] {
  const q = (id: number, tab: string, row: number, text: string, answer: string, trust: 'high' | 'medium' | 'low', score: number): QuestionWithAnswers => ({
    id,
    original_id: `${tab.slice(0, 3).toUpperCase()}-${String(row - 1).padStart(2, '0')}`,
    original_question_text: text,
    row,
    question_coordinate: `B${row}`,
    answer_slots: [{ role: 'answer', header: 'Answer', coordinate: `C${row}`, value: null, is_blocked: false, type: 'text' }],
    tab_name: tab,
    section_path: [tab === 'Security' ? 'Encryption' : 'Data handling'],
    order: id,
    needs_filling: true,
    selected_answer_id: id * 10,
    flagged_for_review: false,
    answers: [
      {
        id: id * 10,
        text: answer,
        evaluation: { score, trust, reason: `Grounded in ${trust === 'low' ? 'one weak' : 'two'} passages.` },
        status: 'draft',
        created_at: NOW,
        updated_at: NOW,
        source_evidence: [
          {
            id: id,
            type: 'passage',
            content: `Excerpt for question ${id}.`,
            filename: 'security-overview.pdf',
            file_id: 3,
            page_number: id + 1,
            tab_name: tab,
            relevance_score: 0.8,
            rank: 1,
            created_at: NOW,
          },
        ],
      },
    ],
  });
  return [
    q(1, 'Security', 2, 'Is data encrypted at rest?', 'Yes, AES-256.', 'high', 92),
    q(2, 'Security', 3, 'Is MFA enforced for administrators?', 'Yes, for all administrative access.', 'medium', 64),
    q(3, 'Privacy', 2, 'Do you sell personal data?', 'No.', 'low', 30),
  ];
}
