/**
 * A second v2 service, written from `../shared/spec/interface-v2.md` alone and deliberately unlike
 * ours wherever the spec allows: no `selected_answer_id`; answers in no particular order (the one to
 * use is approved or the most recent, never simply the first); slot roles of its own (`compliance`,
 * `supporting_detail`, `narrative`) and slot responses keyed by header or coordinate; an `evaluation`
 * of its own shape; unknown extra fields everywhere; absolute `next` links with a small default page
 * size; chat sources with `relevance_score` and no rank; ask sources with only the three documented
 * keys; the legacy `Authorization: Api-Key` header accepted; plain `node:http`, no Fastify.
 *
 * It "detects" the questionnaire it was given for any uploaded workbook (detection is a service's own
 * business; the spec does not say how), so tests know exactly what the answers are.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export const CONTRACT_KEY = 'ctr-7f3a9b-key';
export const CONTRACT_TAB = 'Vendor Assessment';
const OLD = '2024-03-01T09:00:00Z';
const NEW = '2025-06-30T17:45:00Z';

type Json = Record<string, unknown>;

const listSlot = (row: number) => ({
  role: 'compliance',
  header: 'Vendor Response',
  coordinate: `C${row}`,
  type: 'dropdown',
  allowed_values: ['Yes', 'No', 'N/A'],
  vendor_slot_hint: 'select one',
});
const detailSlot = (row: number) => ({ role: 'supporting_detail', header: 'Supporting Detail', coordinate: `D${row}`, value: null });

function evidence(id: number, rank: number, filename: string, page: number, content: string): Json {
  return {
    id,
    type: 'document_chunk',
    content,
    filename,
    file_id: 900 + id,
    page_number: page,
    tab_name: '',
    relevance_score: 1 / rank,
    rank,
    created_at: OLD,
    embedding_model: 'unknown-to-the-client',
  };
}

/** The questions this service finds in any uploaded workbook, with what a fill must do with each. */
export function contractQuestions(): Json[] {
  return [
    {
      // Two answers, the older first; the newer one is approved and keys its slot responses by header.
      id: 501,
      original_id: 'ENC-1',
      original_question_text: 'Is customer data encrypted at rest?',
      tab_name: CONTRACT_TAB,
      section_path: ['Data protection'],
      answer_slots: [listSlot(2), detailSlot(2)],
      needs_filling: true,
      review_lane: 'fast',
      answers: [
        {
          id: 71,
          text: 'No',
          status: 'draft',
          created_at: OLD,
          updated_at: OLD,
          slot_responses: [{ slot_key: 'Vendor Response', content: 'No' }],
          source_evidence: [],
        },
        {
          id: 72,
          text: 'Yes',
          status: 'approved',
          created_at: OLD,
          updated_at: NEW,
          evaluation: { confidence: 0.91, grader: 'panel' },
          slot_responses: [
            { slot_key: 'Vendor Response', content: 'Yes' },
            { slot_key: 'Supporting Detail', content: 'All customer data is encrypted at rest with AES-256.', is_manually_edited: true, edited_by: 'ana' },
          ],
          source_evidence: [
            evidence(3, 2, 'key-management.pdf', 4, 'Keys rotate yearly.'),
            evidence(1, 1, 'encryption-standard.pdf', 2, 'Customer data is encrypted at rest using AES-256.'),
          ],
        },
      ],
    },
    {
      // A draft of a shape we cannot rate (no trust): held back by default, written only as a draft.
      id: 502,
      original_id: 'ENC-2',
      original_question_text: 'Do you support customer-managed keys?',
      tab_name: CONTRACT_TAB,
      answer_slots: [listSlot(3), detailSlot(3)],
      answers: [
        {
          id: 73,
          text: 'No',
          status: 'draft',
          created_at: NEW,
          updated_at: NEW,
          evaluation: { confidence: 0.35 },
          slot_responses: [
            { slot_key: 'C3', content: 'No' },
            { slot_key: 'D3', content: 'Not offered today.' },
          ],
          source_evidence: [evidence(4, 1, 'roadmap.pdf', 9, 'BYOK is planned.')],
        },
      ],
    },
    {
      // Free text only, approved, no slot responses: the answer text goes into the only slot.
      id: 503,
      original_id: 'SEC-9',
      original_question_text: 'Describe your penetration testing.',
      tab_name: CONTRACT_TAB,
      answer_slots: [{ role: 'narrative', header: 'Supporting Detail', coordinate: 'D4' }],
      answers: [{ id: 74, text: 'An independent firm tests yearly; findings are fixed within 30 days.', status: 'approved', created_at: NEW, updated_at: NEW }],
    },
    {
      // Our evaluation shape, high trust, a sentence for a dropdown: coerced to its leading allowed value.
      id: 504,
      original_id: 'ACC-3',
      original_question_text: 'Is MFA required for administrators?',
      tab_name: CONTRACT_TAB,
      answer_slots: [listSlot(5)],
      answers: [
        {
          id: 75,
          text: 'Yes - enforced for every administrative login.',
          status: 'draft',
          created_at: NEW,
          updated_at: NEW,
          evaluation: { score: 88, trust: 'high', reason: 'Stated in the access policy.' },
          source_evidence: [evidence(5, 1, 'access-policy.pdf', 3, 'MFA is required for all administrative access.')],
        },
      ],
    },
  ];
}

interface Session {
  id: number;
  title: string;
  created_at: string;
  updated_at: string;
  is_archived: boolean;
  messages: Json[];
}

export class ContractService {
  readonly requests: { method: string; path: string; auth: string | null }[] = [];
  questions = contractQuestions();
  private readonly sockets = new Set<Socket>();
  private sessions: Session[] = [];
  private files: Json[] = [];
  private progressCalls = 0;
  private nextId = 1000;

  private constructor(
    private readonly server: http.Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<ContractService> {
    const server = http.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const service = new ContractService(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('connection', (s) => {
      service.sockets.add(s);
      s.on('close', () => service.sockets.delete(s));
    });
    server.on('request', (req, res) => void service.handle(req, res));
    for (let i = 1; i <= 5; i++) service.files.push(service.repositoryFile(`policy-${i}.pdf`));
    return service;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private repositoryFile(name: string): Json {
    return {
      id: this.nextId++,
      original_filename: name,
      status: 'ready',
      status_display: 'Indexed',
      processing_stage: 'indexed',
      processing_percent: 100,
      document_type: 'documentation',
      file_format: 'pdf',
      created_at: OLD,
      tags: [{ id: 1, name: 'security', colour: 'teal' }],
      relevant_offerings: [],
      scope_includes_company: true,
      use_as_source: true,
      user: 'ana',
      qa_count: 0,
      data_count: 0,
      passage_count: 8,
      total_embeddings: 8,
      is_reprocessable: false,
      storage_tier: 'warm',
    };
  }

  private session(s: Session, withMessages: boolean): Json {
    const last = s.messages.at(-1);
    return {
      id: s.id,
      title: s.title,
      created_at: s.created_at,
      updated_at: s.updated_at,
      is_archived: s.is_archived,
      message_count: s.messages.length,
      last_message: last ? { sender: last.sender, preview: String(last.content).slice(0, 40) } : null,
      ...(withMessages ? { messages: s.messages } : {}),
      pinned: false,
    };
  }

  /** A pagination envelope with absolute links; the default page size is small so clients must follow `next`. */
  private page(all: Json[], url: URL): Json {
    const page = Math.max(1, Number(url.searchParams.get('page') ?? 1));
    const size = Math.min(200, Math.max(1, Number(url.searchParams.get('page_size') ?? 2)));
    const link = (n: number) => {
      const u = new URL(url.href);
      u.searchParams.set('page', String(n));
      return u.href;
    };
    const start = (page - 1) * size;
    return {
      count: all.length,
      next: start + size < all.length ? link(page + 1) : null,
      previous: page > 1 ? link(page - 1) : null,
      results: all.slice(start, start + size),
      page_count: Math.ceil(all.length / size),
    };
  }

  private answerFor(question: string): { answer: string; sources: Json[] } {
    return {
      answer: `About "${question.slice(0, 60)}": customer data is encrypted at rest with AES-256.`,
      sources: [{ filename: 'encryption-standard.pdf', page_number: 2, content: 'Customer data is encrypted at rest using AES-256.' }],
    };
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', this.origin);
    const cors = {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Headers': 'X-API-Key, Content-Type, Accept, Authorization',
      'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
    };
    const send = (status: number, json: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'X-Served-By': 'contract-service', ...cors }).end(JSON.stringify(json));
    };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors).end();
      return;
    }
    const legacy = /^Api-Key (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? null;
    const key = (req.headers['x-api-key'] as string | undefined) ?? legacy;
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname, auth: key });
    if (key !== CONTRACT_KEY) return send(403, { error: 'Forbidden: unknown API key' });

    const path = url.pathname;
    const json = (): Json => {
      try {
        return JSON.parse(body.toString('utf8') || '{}') as Json;
      } catch {
        return {};
      }
    };
    const m = (re: RegExp) => re.exec(path);
    let hit: RegExpExecArray | null;

    if (req.method === 'POST' && path === '/api/v2/chat/ask/') {
      const question = String(json().question ?? '');
      if (!question.trim()) return send(400, { error: 'question: required' });
      return send(200, { ...this.answerFor(question), session_id: null, latency_ms: 12 });
    }
    if (path === '/api/v2/chat/sessions/') {
      if (req.method === 'POST') {
        const s: Session = { id: this.nextId++, title: String(json().title ?? 'New Chat'), created_at: NEW, updated_at: NEW, is_archived: false, messages: [] };
        this.sessions.unshift(s);
        return send(200, this.session(s, true));
      }
      const search = url.searchParams.get('search')?.toLowerCase() ?? '';
      return send(
        200,
        this.page(
          this.sessions.filter((s) => s.title.toLowerCase().includes(search)).map((s) => this.session(s, false)),
          url,
        ),
      );
    }
    if ((hit = m(/^\/api\/v2\/chat\/sessions\/(\d+)\/(messages\/)?$/))) {
      const s = this.sessions.find((x) => x.id === Number(hit![1]));
      if (!s) return send(404, { error: 'Not found: chat session' });
      if (hit[2] && req.method === 'POST') {
        const message = String(json().message ?? '');
        if (!message.trim() || message.length > 4000) return send(400, { error: 'message: 1 to 4000 characters' });
        const { answer } = this.answerFor(message);
        s.messages.push({ id: this.nextId++, sender: 'user', content: message, created_at: NEW, is_edited: false, metadata: null, sources: [] });
        s.messages.push({
          id: this.nextId++,
          sender: 'assistant',
          content: answer,
          created_at: NEW,
          is_edited: false,
          metadata: { model: 'their-own' },
          sources: [
            {
              id: 1,
              type: 'chunk',
              relevance_score: 0.82,
              content: 'Customer data is encrypted at rest using AES-256.',
              source_file: 'encryption-standard.pdf',
              page_number: 2,
              context_header: 'Encryption',
              source_url: '',
            },
          ],
        });
        if (s.title === 'New Chat') s.title = message.slice(0, 200);
        return send(200, this.session(s, true));
      }
      return send(200, this.session(s, true));
    }
    if (path === '/api/v2/filler/questionnaires/') {
      if (req.method === 'POST') {
        if (!String(req.headers['content-type']).startsWith('multipart/form-data') || !body.includes('name="files"')) {
          return send(400, { error: 'files: at least one file is required' });
        }
        this.progressCalls = 0;
        return send(200, { file_ids: [4242], questionnaire_ids: [77], queued: true });
      }
      return send(200, [this.questionnaire()]);
    }
    if ((hit = m(/^\/api\/v2\/filler\/questionnaires\/(\d+)\/(answer-progress\/|answers\/|structure\/)?$/))) {
      if (hit[1] !== '77') return send(404, { error: 'Not found: questionnaire' });
      if (!hit[2]) return send(200, this.questionnaire());
      const n = this.questions.length;
      if (hit[2] === 'answer-progress/') {
        const received = Math.min(n, this.progressCalls++ * 2);
        return send(200, {
          status: received < n ? 'generating' : 'complete',
          answers_expected: n,
          answers_received: received,
          percent: Math.round((received / n) * 100),
          eta_seconds: 1,
        });
      }
      const tab = url.searchParams.get('tab');
      const questions = this.questions.filter((q) => !tab || q.tab_name === tab);
      if (hit[2] === 'answers/') return send(200, questions);
      return send(200, {
        tabs: [{ tab_name: CONTRACT_TAB, question_count: n, needs_filling_count: n }],
        groups: [
          {
            tab_name: CONTRACT_TAB,
            question_count: n,
            needs_filling_count: n,
            answer_slots: [listSlot(2), detailSlot(2)],
            display_order: 1,
            filter_counts: { approved: 2 },
          },
        ],
        total_question_count: n,
        total_needs_filling_count: n,
        quick_filter_counts: {
          trustLow: 0,
          trustMedium: 0,
          trustHigh: 1,
          approved: 2,
          notApproved: 2,
          scoreLow: 0,
          scoreMedium: 0,
          scoreHigh: 1,
          needsReview: 1,
          lowCoverage: 0,
        },
        avg_score: 88,
        generated_by: 'contract',
      });
    }
    if (path === '/api/v2/repository/files/') {
      if (req.method === 'POST') {
        const names = [...body.toString('latin1').matchAll(/filename="([^"]+)"/g)].map((x) => x[1]!);
        if (names.length === 0) return send(400, { error: 'files: at least one file is required' });
        for (const name of names) this.files.push(this.repositoryFile(name));
        return send(200, { count: names.length, failed: [] });
      }
      return send(200, this.page(this.files, url));
    }
    if ((hit = m(/^\/api\/v2\/repository\/files\/(\d+)\/$/))) {
      const f = this.files.find((x) => x.id === Number(hit![1]));
      return f ? send(200, f) : send(404, { error: 'Not found: file' });
    }
    return send(404, { error: `Not found: ${path}` });
  }

  private questionnaire(): Json {
    return {
      id: 77,
      file: { id: 4242, original_filename: 'questionnaire.xlsx', file_format: 'excel', status: 'ready', created_at: NEW },
      file_name: 'questionnaire.xlsx',
      client: null,
      status: 'draft',
      status_display: 'Draft',
      visibility: 'organization',
      user: 'ana',
      answers_count: this.questions.length,
      approved_count: 2,
      submitted_for_review_at: null,
      approved_at: null,
      owner: 'ana',
      reviewers: [],
      contributors: [],
      my_role: 'owner',
      permissions: { can_export: true },
      stats: {},
      teams: [],
      my_teams: {},
      relevant_offerings: [],
      scope_includes_company: true,
      detected_language: 'en',
      effective_language: 'en',
      can_access: true,
      can_edit: true,
      can_approve: false,
      can_assign: false,
      workflow: { stage: 2 },
    };
  }
}
