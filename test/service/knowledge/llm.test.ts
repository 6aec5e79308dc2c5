import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { addText, meta, tempKb, YES_NO_SLOTS, type TempKb } from './helpers';

/** A local OpenAI-compatible stub: records requests, replies with whatever the test queued. */
interface Stub {
  url: string;
  requests: { path: string; body: Record<string, unknown> }[];
  replies: (string | { status: number })[];
  embed: (text: string) => number[];
  server: Server;
}

function startStub(): Promise<Stub> {
  const stub: Stub = {
    url: '',
    requests: [],
    replies: [],
    // Toy embeddings: one dimension per topic word, enough to tell topics apart.
    embed: (text) => [/encrypt/, /backup|snapshot/, /badge/, /password/].map((w) => (w.test(text.toLowerCase()) ? 1 : 0.01)),
    server: createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        const body = JSON.parse(raw || '{}') as Record<string, unknown>;
        stub.requests.push({ path: req.url ?? '', body });
        res.setHeader('content-type', 'application/json');
        if (req.url?.endsWith('/embeddings')) {
          const input = body.input as string[];
          res.end(
            JSON.stringify({ object: 'list', model: body.model, data: input.map((t, index) => ({ object: 'embedding', index, embedding: stub.embed(t) })) }),
          );
          return;
        }
        const reply = stub.replies.shift() ?? '{"answer": "", "slots": {}, "citations": []}';
        if (typeof reply !== 'string') {
          res.statusCode = reply.status;
          res.end(JSON.stringify({ error: { message: 'stub failure' } }));
          return;
        }
        res.end(
          JSON.stringify({
            id: 'stub',
            object: 'chat.completion',
            created: 0,
            model: body.model,
            choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: reply } }],
          }),
        );
      });
    }),
  };
  return new Promise((resolve) =>
    stub.server.listen(0, '127.0.0.1', () => {
      stub.url = `http://127.0.0.1:${(stub.server.address() as AddressInfo).port}/v1`;
      resolve(stub);
    }),
  );
}

let stub: Stub;
let t: TempKb;
beforeAll(async () => {
  stub = await startStub();
});
afterAll(() => new Promise<void>((resolve) => stub.server.close(() => resolve())));
beforeEach(async () => {
  stub.requests.length = 0;
  stub.replies.length = 0;
  t = await tempKb({ llm: { baseUrl: stub.url, model: 'stub-model', apiKey: 'test-key' } });
  await addText(
    t.kb,
    meta({ file_id: 1, filename: 'Security Overview.md' }),
    '# Data Protection\n\nCustomer data is encrypted at rest with AES-256 and in transit with TLS 1.2.\n\n# Facilities\n\nOffices require badge access.',
  );
});
afterEach(() => t.close());

const question = { text: 'Is customer data encrypted at rest?', answer_slots: YES_NO_SLOTS };

describe('generated answers through an OpenAI-compatible endpoint', () => {
  it('sends only the retrieved, numbered evidence and uses a valid reply', async () => {
    stub.replies.push('```json\n{"answer": "Yes", "slots": {"answer": "yes", "comment": "Encrypted with AES-256 at rest."}, "citations": [1]}\n```');
    const result = await t.kb.answerQuestion(1, question, {});
    expect(stub.requests).toHaveLength(1);
    const request = stub.requests[0]!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.body.model).toBe('stub-model');
    const prompt = JSON.stringify(request.body.messages);
    expect(prompt).toContain('<evidence id=1>\\n(Security Overview | Data Protection)');
    expect(prompt).toContain('Customer data is encrypted at rest with AES-256');
    expect(prompt).toContain('Is customer data encrypted at rest?');
    expect(prompt).toContain('allowed values: \\"Yes\\", \\"No\\", \\"N/A\\"');
    // Irrelevant knowledge never reaches the model.
    expect(prompt).not.toContain('badge');

    expect(result).toMatchObject({ method: 'llm', text: 'Yes', flagged_for_review: false });
    expect(result.slot_responses).toEqual([
      { slot_key: 'answer', content: 'Yes' },
      { slot_key: 'comment', content: 'Encrypted with AES-256 at rest.' },
    ]);
    expect(result.evidence[0]).toMatchObject({ filename: 'Security Overview.md', rank: 1 });
    expect(result.evaluation.reason).toMatch(/^Generated from Security Overview/);
  });

  it('rejects a list value outside allowed_values: the slot stays empty and the answer is flagged', async () => {
    stub.replies.push('{"answer": "Partially", "slots": {"answer": "Partially", "comment": "Only at rest."}, "citations": [1]}');
    const result = await t.kb.answerQuestion(1, question, {});
    expect(result.method).toBe('llm');
    expect(result.text).toBe('');
    expect(result.slot_responses).toEqual([{ slot_key: 'comment', content: 'Only at rest.' }]);
    expect(result.flagged_for_review).toBe(true);
    expect(result.evaluation.reason).toContain('rejected "Partially"');
    expect(result.score).toBeLessThan(50);
  });

  it('falls back to the extractive answer when the model fails or replies with garbage', async () => {
    // 401 is not retried (429 and 5xx are: test/service/llm/).
    stub.replies.push({ status: 401 });
    const failed = await t.kb.answerQuestion(1, question, {});
    expect(failed.method).toBe('extractive');
    expect(failed.evaluation.reason).toContain('the language model failed');
    expect(failed.slot_responses.find((s) => s.slot_key === 'comment')?.content).toContain('AES-256');

    // Garbage twice: the repair request does not help either.
    stub.replies.push('I think the answer is yes.', 'Still yes.');
    const garbage = await t.kb.answerQuestion(1, question, {});
    expect(garbage.method).toBe('extractive');
    expect(garbage.evaluation.reason).toContain('did not reply with JSON');
  });

  it('does not call the model when there is no evidence', async () => {
    const result = await t.kb.answerQuestion(1, { text: 'Who won the football world cup?', answer_slots: YES_NO_SLOTS }, {});
    expect(result.method).toBe('none');
    expect(stub.requests).toHaveLength(0);
  });

  it('stores embeddings and finds a passage by meaning when an embeddings endpoint is configured', async () => {
    const dense = await tempKb({ embeddings: { baseUrl: stub.url, model: 'stub-embed' } });
    try {
      const doc = {
        file_format: 'txt' as const,
        document_type: 'documentation' as const,
        qa: [],
        pages: [{ page_number: 1, text: 'Backup copies are replicated to a second region every night.' }],
      };
      const counts = await dense.kb.indexDocument(meta({ file_id: 1, filename: 'dr.md' }), doc);
      expect(counts).toEqual({ passage_count: 1, qa_count: 0, total_embeddings: 1, template: null });
      const [row] = await dense.query<{ bytes: number }>('SELECT length(embedding) AS bytes FROM kb_passages');
      expect(row!.bytes).toBe(4 * 4);
      expect(stub.requests.some((r) => r.path === '/v1/embeddings' && (r.body.input as string[])[0]!.includes('Backup copies'))).toBe(true);
      // No term in common with the passage: only the embeddings can connect them.
      expect(await dense.kb.search(1, 'Where are snapshots stored?', {})).toEqual([]);
      const result = await dense.kb.answerQuestion(1, { text: 'Where are snapshots stored?', answer_slots: [] }, {});
      expect(result.evidence[0]).toMatchObject({ filename: 'dr.md', rank: 1 });
      // Related by meaning but no sentence shares the question's terms: cited, not answered.
      expect(result).toMatchObject({ method: 'none', text: '', flagged_for_review: true });
    } finally {
      await dense.close();
    }
  });
});
