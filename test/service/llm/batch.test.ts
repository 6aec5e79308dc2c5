import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LlmAnswerer, type BatchQuestion } from '../../../src/service/knowledge/answer/llm';
import type { Candidate } from '../../../src/service/knowledge/retrieval';
import { planBatches, type BatchLimits } from '../../../src/service/llm/batch';
import { TokenBudget } from '../../../src/service/llm/budget';

/** A loopback OpenAI-compatible stub replying with whatever each test queued. */
type Handler = (body: Record<string, unknown>, res: ServerResponse) => void;
let server: Server;
let base: string;
let queue: Handler[];
let seen: Record<string, unknown>[];

beforeEach(async () => {
  queue = [];
  seen = [];
  server = createServer((req: IncomingMessage, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as Record<string, unknown>;
      seen.push(body);
      const handler = queue.shift();
      if (!handler) {
        res.writeHead(500).end('{"error": {"message": "nothing queued"}}');
        return;
      }
      handler(body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function reply(answers: unknown[], tokens = 120): Handler {
  return (_body, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        model: 'stub-model',
        choices: [{ message: { role: 'assistant', content: JSON.stringify({ answers }) } }],
        usage: { total_tokens: tokens },
      }),
    );
  };
}

const SLOTS = [
  { role: 'answer', header: 'Vendor Answer', coordinate: 'C5', type: 'list', allowed_values: ['Yes', 'No', 'N/A'] },
  { role: 'comment', header: 'Comment', coordinate: 'D5' },
];
let passageId = 0;
function evidence(content: string): Candidate {
  return {
    evidence: {
      type: 'passage',
      passage_id: ++passageId,
      qna_id: null,
      file_id: 1,
      filename: 'security.pdf',
      page_number: 2,
      content,
      context_header: 'Security',
      section_path: [],
      tab_name: '',
      relevance_score: 0.8,
      rank: 1,
    },
    stems: new Set<string>() as unknown as Candidate['stems'],
    fusion: 1,
  };
}
const ENCRYPTION = evidence('Customer data is encrypted at rest with AES-256 on all storage volumes.');
const BACKUPS = evidence('Backups are performed nightly and kept for 35 days in a second region.');
const MFA = evidence('Multi-factor authentication is enforced for all administrator accounts.');
const q = (text: string, candidates: Candidate[]): BatchQuestion => ({ question: { text, answer_slots: SLOTS }, candidates });
const Q_ENC = q('Is customer data encrypted at rest?', [ENCRYPTION]);
const Q_BACKUP = q('Are backups performed nightly?', [BACKUPS, ENCRYPTION]);
const Q_MFA = q('Is multi-factor authentication enforced for administrators?', [MFA]);
const LIMITS: BatchLimits = { maxQuestions: 8, maxPromptChars: 24_000 };

const answerer = () => new LlmAnswerer({ baseUrl: base, model: 'stub-model' }, { QFILL_LLM_TIMEOUT_SECONDS: '2' }, 1);
const promptOf = (body: Record<string, unknown>) => (body.messages as { content: string }[])[1]!.content;
const slot = (o: unknown, key: string) =>
  (o as { result: { slot_responses: { slot_key: string; content: string }[] } }).result.slot_responses.find((s) => s.slot_key === key)?.content;
const result = (o: unknown) => (o as { result: { flagged_for_review: boolean; evaluation: { reason: string } } }).result;

describe('several questions per request', () => {
  it('sends a section in one request, shared evidence once, ids as an enum, and maps answers back by id', async () => {
    queue.push(
      reply([
        // Out of order: mapped by id, not by position.
        { id: 'q3', answer: 'Yes', slots: { answer: 'Yes', comment: 'Multi-factor authentication is enforced for administrator accounts.' }, citations: [3] },
        { id: 'q1', answer: 'Yes', slots: { answer: 'Yes', comment: 'Customer data is encrypted at rest with AES-256.' }, citations: [1] },
        { id: 'q2', answer: 'Yes', slots: { answer: 'Yes', comment: 'Backups are performed nightly.' }, citations: [2] },
      ]),
    );
    const out = await answerer().answerBatch([Q_ENC, Q_BACKUP, Q_MFA], new TokenBudget(0), LIMITS);
    expect(seen).toHaveLength(1);
    const prompt = promptOf(seen[0]!);
    expect(prompt.match(/AES-256/g)).toHaveLength(1);
    expect(prompt.match(/<evidence id=\d+>/g)).toHaveLength(3);
    const format = seen[0]!.response_format as { json_schema: { schema: { properties: { answers: { items: { properties: { id: { enum: string[] } } } } } } } };
    expect(format.json_schema.schema.properties.answers.items.properties.id.enum).toEqual(['q1', 'q2', 'q3']);
    expect(out.outcomes.map((o) => slot(o, 'comment'))).toEqual([
      'Customer data is encrypted at rest with AES-256.',
      'Backups are performed nightly.',
      'Multi-factor authentication is enforced for administrator accounts.',
    ]);
    expect(out.outcomes.every((o) => !result(o).flagged_for_review)).toBe(true);
    expect(out.usage).toEqual({ requests: 1, tokens: 120 });
  });

  it('asks a left-out question again on its own, ignores an unknown id, and flags swapped answers', async () => {
    queue.push(
      reply([
        // q1 and q3 swapped: each cites the other's evidence and says the other's thing.
        { id: 'q1', answer: 'Yes', slots: { answer: 'Yes', comment: 'Multi-factor authentication is enforced for administrator accounts.' }, citations: [3] },
        { id: 'q3', answer: 'No', slots: { answer: 'No', comment: '' }, citations: [1] },
        { id: 'q7', answer: 'Yes', slots: { answer: 'Yes', comment: 'All data is quantum-safe.' }, citations: [1] },
      ]),
      reply([{ id: 'q1', answer: 'Yes', slots: { answer: 'Yes', comment: 'Backups are performed nightly.' }, citations: [1] }], 40),
    );
    const out = await answerer().answerBatch([Q_ENC, Q_BACKUP, Q_MFA], new TokenBudget(0), LIMITS);
    expect(seen).toHaveLength(2);
    // The second request holds only the question left out, renumbered q1.
    expect(promptOf(seen[1]!)).toContain('[q1] Are backups performed nightly?');
    expect(promptOf(seen[1]!)).not.toContain('encrypted at rest?');
    expect(slot(out.outcomes[1], 'comment')).toBe('Backups are performed nightly.');
    expect(result(out.outcomes[1]).flagged_for_review).toBe(false);
    // Nothing of the unknown q7 landed anywhere.
    expect(JSON.stringify(out.outcomes)).not.toContain('quantum');
    for (const i of [0, 2]) {
      expect(result(out.outcomes[i]).flagged_for_review).toBe(true);
      expect(result(out.outcomes[i]).evaluation.reason).toContain("does not address this question's key terms");
    }
    expect(out.usage).toEqual({ requests: 2, tokens: 160 });
  });

  it('checks each answer on its own: a value outside the list and a citation out of range are flagged', async () => {
    queue.push(
      reply([
        { id: 'q1', answer: 'Partially', slots: { answer: 'Partially', comment: 'Customer data is encrypted at rest.' }, citations: [1] },
        { id: 'q2', answer: 'Yes', slots: { answer: 'Yes', comment: 'Backups are performed nightly.' }, citations: [2, 9] },
      ]),
    );
    const out = await answerer().answerBatch([Q_ENC, Q_BACKUP], new TokenBudget(0), LIMITS);
    expect(slot(out.outcomes[0], 'answer')).toBeUndefined();
    expect(result(out.outcomes[0]).evaluation.reason).toContain('rejected "Partially"');
    expect(result(out.outcomes[1]).flagged_for_review).toBe(true);
    expect(result(out.outcomes[1]).evaluation.reason).toContain('not given (9)');
  });

  it('a left-out question still unanswered after the second ask fails with the reason', async () => {
    queue.push(reply([{ id: 'q1', answer: 'Yes', slots: { answer: 'Yes', comment: 'Customer data is encrypted at rest.' }, citations: [1] }]), reply([]));
    const out = await answerer().answerBatch([Q_ENC, Q_BACKUP], new TokenBudget(0), LIMITS);
    expect(out.outcomes[1]).toEqual({ failed: 'the language model left this question out of its reply' });
    expect(seen).toHaveLength(2);
  });

  it('does not send a batch once the questionnaire budget cannot pay for it, and says so', async () => {
    queue.push(reply([{ id: 'q1', answer: 'Yes', slots: { answer: 'Yes', comment: 'Customer data is encrypted at rest.' }, citations: [1] }], 900));
    // 200 of the questionnaire's 1500 tokens were spent before a restart.
    const budget = new TokenBudget(1500, 200);
    const llm = answerer();
    await llm.answerBatch([Q_ENC], budget, LIMITS);
    expect(budget.spent).toBe(1100);
    const second = await llm.answerBatch([Q_BACKUP, Q_MFA], budget, LIMITS);
    expect(seen).toHaveLength(1);
    expect(second.outcomes).toEqual([
      { failed: 'the token budget of 1500 tokens per questionnaire (QFILL_LLM_TOKEN_BUDGET) is spent: 1100 used' },
      { failed: 'the token budget of 1500 tokens per questionnaire (QFILL_LLM_TOKEN_BUDGET) is spent: 1100 used' },
    ]);
  });
});

describe('planBatches', () => {
  const item = (shape: string, keys: string[], chars = 1000) => ({
    shape,
    evidenceKeys: keys,
    evidenceChars: new Map(keys.map((k) => [k, chars])),
    questionChars: 100,
  });
  it('keeps consecutive questions of one shape together under the question and prompt caps', () => {
    const items = [item('yn', ['a']), item('yn', ['a']), item('yn', ['b']), item('text', ['c']), item('yn', ['d']), item('yn', ['e'])];
    const batches = planBatches(items, { maxQuestions: 3, maxPromptChars: 100_000 });
    expect(batches.map((b) => b.length)).toEqual([3, 1, 2]);
    // Shared evidence counts once: a+a+b = 2000 + 300; the fourth yes/no question's evidence no longer fits 2500.
    const capped = planBatches([item('yn', ['a']), item('yn', ['a']), item('yn', ['b']), item('yn', ['c'])], { maxQuestions: 8, maxPromptChars: 2500 });
    expect(capped.map((b) => b.length)).toEqual([3, 1]);
    // One question larger than the cap still gets its own batch.
    expect(planBatches([item('yn', ['x'], 50_000)], { maxQuestions: 8, maxPromptChars: 2500 }).map((b) => b.length)).toEqual([1]);
  });
});
