/**
 * The Chat controller's steps on their own: checking a question, asking once or in a session (the real
 * ApiClient over loopback HTTP to the FakeService), the turns of an answer, and the selected cell's question.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../../src/api/schemas';
import { askInSession, askOnce, questionAtSelection, questionProblem } from '../../../src/taskpane/chat/ask';
import { askedTurns } from '../../../src/taskpane/chat/turns';
import { realClient } from '../client';
import { FakeService, sampleQuestions } from '../fake-service';
import { MemoryWorkbook } from '../memory-workbook';

let fake: FakeService;
beforeAll(async () => (fake = await FakeService.start()));
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.sessions = [];
});
afterEach(() => fake.clearFailures());

const client = () => realClient({ baseUrl: fake.origin, apiKey: 'k' });

describe('asking', () => {
  it('refuses only a question longer than the service accepts', () => {
    expect(questionProblem('x'.repeat(LIMITS.messageLength))).toBeNull();
    expect(questionProblem('x'.repeat(LIMITS.messageLength + 1))).toMatch(/characters long; the service accepts at most/);
  });

  it('asks once, restricted to a file: the question and its answer as two turns', async () => {
    const [asked, answered] = await askOnce(client(), 'RTO?', 3);
    expect(JSON.parse(fake.requestsTo('POST', /chat\/ask/)[0]!.body)).toEqual({ question: 'RTO?', file_id: 3 });
    expect([asked.sender, asked.text, answered.sender]).toEqual(['user', 'RTO?', 'assistant']);
    expect(answered.key).toBeGreaterThan(asked.key);
  });

  it('opens a session named after the first question, told at once, and goes on in it', async () => {
    const created: number[] = [];
    fake.fail('POST', /chat\/sessions\/\d+\/messages/, { status: 400, json: { error: 'message refused' } });
    await expect(askInSession(client(), null, 'x'.repeat(300), undefined, (id) => created.push(id))).rejects.toThrow(/message refused/);
    expect(created).toHaveLength(1);
    expect(fake.sessions[0]!.title).toHaveLength(LIMITS.sessionTitleLength);

    const session = await askInSession(client(), created[0]!, 'Again', undefined, (id) => created.push(id));
    expect(created).toHaveLength(1);
    expect(session.messages?.map((m) => m.content)).toEqual(['Again', 'Data is encrypted at rest with AES-256. (turn 1)']);
  });

  it("an answer's sources come best first, without a trust when the service gives none", () => {
    const [, answered] = askedTurns('Q', {
      answer: 'A',
      sources: [
        { filename: 'low.pdf', page_number: 1, content: 'x', relevance_score: 0.2 },
        { filename: 'high.pdf', page_number: 2, content: 'y', relevance_score: 0.9 },
      ],
    } as never);
    expect(answered.sources.map((s) => s.filename)).toEqual(['high.pdf', 'low.pdf']);
    expect(answered.trust).toBeNull();
  });
});

describe("the selected cell's question", () => {
  it('is found from the cell, or the hint says why not', async () => {
    const workbook = new MemoryWorkbook();
    const questions = sampleQuestions();
    expect(await questionAtSelection(workbook, questions)).toEqual({ hint: 'Select a cell of a question in the sheet first.' });
    workbook.userSelects({ tab: 'Security', address: 'Z99' });
    expect(await questionAtSelection(workbook, questions)).toEqual({
      hint: 'The selected cell Security!Z99 does not belong to a question of this questionnaire.',
    });
    expect(await questionAtSelection(workbook, [])).toMatchObject({ hint: expect.stringMatching(/^No questionnaire is known/) });
    const q = questions[0]!;
    workbook.userSelects({ tab: q.tab_name, address: q.question_coordinate! });
    expect(await questionAtSelection(workbook, questions)).toEqual({ question: q });
  });
});
