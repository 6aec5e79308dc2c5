import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NOT_FOUND_ANSWER } from '../../../src/service/knowledge';
import { isFollowUp, resolveFollowUp } from '../../../src/service/knowledge/answer/chat';
import { addText, meta, tempKb, type TempKb } from './helpers';

let t: TempKb;
beforeEach(async () => {
  t = tempKb();
  await addText(
    t.kb,
    meta({ file_id: 1, filename: 'Incident Response Plan.md' }),
    '# Incident Response\n\nThe incident response plan defines severity levels and on-call escalation.\n\n' +
      '## Review\n\nThe incident response plan is reviewed and tested annually through a tabletop exercise.',
  );
  await addText(
    t.kb,
    meta({ file_id: 2, filename: 'Access Policy.md' }),
    '# Access Reviews\n\nUser access rights are reviewed quarterly by managers. Privileged access is reviewed monthly.',
  );
});
afterEach(() => t.close());

describe('answerChat', () => {
  it('answers with the best sentences and their sources', async () => {
    const chat = await t.kb.answerChat(1, 'What does the incident response plan define?', [], {});
    expect(chat.answer).toContain('The incident response plan defines severity levels and on-call escalation.');
    expect(chat.sources[0]).toMatchObject({ filename: 'Incident Response Plan.md', rank: 1, context_header: 'Incident Response' });
    expect(chat.resolved_query).toBe('What does the incident response plan define?');
  });

  it('resolves a follow-up against the previous user turn', async () => {
    const history = [
      { sender: 'user' as const, content: 'Do you have an incident response plan?' },
      { sender: 'assistant' as const, content: 'The incident response plan defines severity levels and on-call escalation.' },
    ];
    const followUp = await t.kb.answerChat(1, 'and how often is it reviewed?', history, {});
    expect(followUp.resolved_query).toMatch(/incident response plan .*and how often is it reviewed\?$/);
    expect(followUp.answer).toContain('reviewed and tested annually');
    expect(followUp.sources[0]!.filename).toBe('Incident Response Plan.md');

    // Without the history the same words find access reviews, not the plan.
    const alone = await t.kb.answerChat(1, 'and how often is it reviewed?', [], {});
    expect(alone.sources[0]?.filename).not.toBe('Incident Response Plan.md');
  });

  it('says it could not find an answer, with no sources, when nothing is relevant', async () => {
    const chat = await t.kb.answerChat(1, 'What is your parental leave policy?', [], {});
    expect(chat).toEqual({ answer: NOT_FOUND_ANSWER, sources: [], resolved_query: 'What is your parental leave policy?' });
    const otherOrg = await t.kb.answerChat(2, 'What does the incident response plan define?', [], {});
    expect(otherOrg.answer).toBe(NOT_FOUND_ANSWER);
  });

  it('tells follow-ups from self-contained questions', () => {
    expect(isFollowUp('and how often is it reviewed?')).toBe(true);
    expect(isFollowUp('What about privileged accounts?')).toBe(true);
    expect(isFollowUp('Frequency?')).toBe(true);
    expect(isFollowUp('How often are user access rights reviewed?')).toBe(false);
    expect(resolveFollowUp('How often are user access rights reviewed?', [{ sender: 'user', content: 'Do you encrypt backups?' }])).toBe(
      'How often are user access rights reviewed?',
    );
    // A chain of follow-ups keeps the subject of the question that started it.
    const chain = resolveFollowUp('who approves it?', [
      { sender: 'user', content: 'Do you have a disaster recovery plan?' },
      { sender: 'user', content: 'and is it tested?' },
    ]);
    expect(chain).toContain('disaster');
    expect(chain).toContain('tested');
  });
});
