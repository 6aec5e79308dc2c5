import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NOT_FOUND_ANSWER } from '../../../src/service/knowledge';
import { client, files, startService, waitForFile } from '../helpers';
import { isFollowUp, questionParts, resolveFollowUp } from '../../../src/service/knowledge/answer/chat';
import { quotableSentences } from '../../../src/service/knowledge/answer/sentences';
import { addText, meta, tempKb, type TempKb } from './helpers';

let t: TempKb;
beforeEach(async () => {
  t = await tempKb();
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

  it('quotes for a follow-up only the sentences that speak to its own words', async () => {
    const history = [
      { sender: 'user' as const, content: 'Do you have an incident response plan?' },
      { sender: 'assistant' as const, content: 'The incident response plan defines severity levels and on-call escalation.' },
    ];
    const chat = await t.kb.answerChat(1, 'How often is it tested?', history, {});
    // "defines severity levels" is about the plan but not about testing: it is not part of the answer.
    expect(chat.answer).toBe('The incident response plan is reviewed and tested annually through a tabletop exercise.');
    expect(chat.sources.map((s) => s.filename)).toEqual(['Incident Response Plan.md']);

    // A follow-up about something the knowledge base does not hold is not answered with the earlier subject.
    const unknown = await t.kb.answerChat(1, 'What about bug bounties?', history, {});
    expect(unknown.resolved_query).toContain('incident');
    expect(unknown).toMatchObject({ answer: NOT_FOUND_ANSWER, sources: [] });
  });

  it("does not quote a sentence that shares only the question's common words", async () => {
    await addText(
      t.kb,
      meta({ file_id: 3, filename: 'Passwords.md' }),
      '# Passwords\n\nUsers cannot reuse any of their last 12 passwords when they change them.',
    );
    const chat = await t.kb.answerChat(1, 'Have you had an unplanned disruption in the last 12 months?', [], {});
    expect(chat).toMatchObject({ answer: NOT_FOUND_ANSWER, sources: [] });
  });

  it('answers "Which algorithm is that?" after "Is data encrypted at rest?" from the AES passage, though it never says "algorithm"', async () => {
    await addText(
      t.kb,
      meta({ file_id: 3, filename: 'Encryption Standard.md' }),
      '# Encryption\n\nCustomer data is encrypted at rest using AES-256 on every storage volume and backup.\n\n' +
        '## Key management\n\nKeys are managed in a hardware security module and rotated yearly.',
    );
    const history = [
      { sender: 'user' as const, content: 'Is data encrypted at rest?' },
      { sender: 'assistant' as const, content: 'Customer data is encrypted at rest using AES-256 on every storage volume and backup.' },
    ];
    const chat = await t.kb.answerChat(1, 'Which algorithm is that?', history, {});
    expect(chat.resolved_query).toMatch(/encrypt.*Which algorithm is that\?$/);
    expect(chat.answer).toContain('AES-256');
    expect(chat.sources[0]!.filename).toBe('Encryption Standard.md');
    expect(chat.trust).toBeDefined();
  });

  it('quotes one coherent source, not sentences of two documents spliced together', async () => {
    await addText(
      t.kb,
      meta({ file_id: 3, filename: 'Northwind Overview.md' }),
      '# Incident response\n\nNorthwind notifies customers of incidents within 72 hours of confirmation.',
    );
    await addText(
      t.kb,
      meta({ file_id: 4, filename: 'Acme Overview.md' }),
      '# Incident response\n\nAcme notifies affected customers of security incidents within 24 hours.',
    );
    const chat = await t.kb.answerChat(1, 'How quickly do you notify customers of security incidents?', [], {});
    expect(new Set(chat.sources.map((s) => s.file_id)).size).toBe(1);
    expect(chat.answer.includes('Northwind') && chat.answer.includes('Acme')).toBe(false);
  });

  it("does not take an empty form's labels for an answer; high trust goes to the sentence that states it", async () => {
    await addText(
      t.kb,
      meta({ file_id: 3, filename: 'Attestation Form.txt' }),
      'Type of service(s) assessed: Hosting Provider: Applications / software Hardware Infrastructure / Network Physical space (co-location) Storage Web-hosting services Security services Multi-Tenant Service Provider Other Hosting (specify): Managed Services:',
    );
    const onlyForm = await t.kb.answerChat(1, 'Who is your hosting provider?', [], {});
    expect(onlyForm).toMatchObject({ answer: NOT_FOUND_ANSWER, sources: [] });

    await addText(
      t.kb,
      meta({ file_id: 4, filename: 'Security Overview.md' }),
      '# Infrastructure\n\nOur products are hosted on cloud infrastructure provided by Amazon Web Services (AWS).',
    );
    const chat = await t.kb.answerChat(1, 'Who is your hosting provider?', [], {});
    expect(chat.answer).toBe('Our products are hosted on cloud infrastructure provided by Amazon Web Services (AWS).');
    expect(chat.trust).toBe('high');
    expect(chat.sources.map((s) => s.filename)).toEqual(['Security Overview.md']);
  });

  it('gives medium trust, not high, to a sentence holding only part of what was asked', async () => {
    const chat = await t.kb.answerChat(1, 'Is the incident response plan tested with external auditors?', [], {});
    expect(chat.answer).toContain('tested annually');
    expect(chat.trust).not.toBe('high');
  });

  it("labels a provider's certifications quoted in our own document as the provider's, with low trust", async () => {
    await addText(
      t.kb,
      meta({ file_id: 3, filename: 'Architecture.md' }),
      '# Product Security\n\nNorthwind holds the following certifications which are independently audited by a 3rd party:\n\n' +
        '- SOC 2 Type II\n- ISO/IEC 27001:2013\n\n' +
        'As one of the benefits of utilizing AWS cloud infrastructure, we also benefit from the following security certifications:\n\n' +
        '- SOC 1 Type II (ISAE 3402) and SOC 3 Type II reports\n- ISO 27017 and 27018 certified\n',
    );
    await t.kb.setOrganisationNames(1, ['Northwind']);
    const theirs = await t.kb.answerChat(1, 'Do you have a SOC 1 Type II report?', [], {});
    expect(theirs.answer).toMatch(
      /^Amazon Web Services', not your organisation's \(Architecture\.md quotes them as the provider's\): .*SOC 1 Type II \(ISAE 3402\)/,
    );
    expect(theirs.trust).toBe('low');

    const ours = await t.kb.answerChat(1, 'Which certifications do you hold?', [], {});
    expect(ours.answer.split('\n')[0]).toBe(
      'Northwind holds the following certifications which are independently audited by a 3rd party: SOC 2 Type II; ISO/IEC 27001:2013.',
    );
  });

  it('answers a two-part question part by part, says which parts it answered, and is never high trust for half an answer', async () => {
    await addText(
      t.kb,
      meta({ file_id: 3, filename: 'Encryption.md' }),
      '# Encryption\n\nCustomer data is encrypted at rest using AES-256 on every storage volume.',
    );
    const chat = await t.kb.answerChat(1, 'Is customer data encrypted at rest? Do you run a bug bounty programme?', [], {});
    expect(chat.answer.split('\n')).toEqual([
      'Answered 1 of 2 parts of the question.',
      'Is customer data encrypted at rest? — Customer data is encrypted at rest using AES-256 on every storage volume.',
      'Do you run a bug bounty programme? — not found in your documents.',
    ]);
    expect(chat.trust).toBe('low');
    // Asked alone, the part that is answered is high trust.
    expect((await t.kb.answerChat(1, 'Is customer data encrypted at rest?', [], {})).trust).toBe('high');
    expect(questionParts('Where is data stored, and who can access it?')).toEqual(['Where is data stored', 'who can access it?']);
    expect(questionParts('Is data encrypted at rest and in transit?')).toEqual(['Is data encrypted at rest and in transit?']);
  });

  it('never joins fragments: an abbreviation does not end a sentence, and a piece cut by a passage break is not quoted', async () => {
    await addText(
      t.kb,
      meta({ file_id: 3, filename: 'Transport.md' }),
      '# Transport security\n\nAll traffic is encrypted using TLS 1.2 with forward-secret ciphers (e.g. ECDHE-ECDSA-AES128-GCM-SHA256). The cipher list is reviewed monthly.',
    );
    const chat = await t.kb.answerChat(1, 'Which cipher?', [], {});
    expect(chat.answer).toContain('All traffic is encrypted using TLS 1.2 with forward-secret ciphers (e.g. ECDHE-ECDSA-AES128-GCM-SHA256).');
    expect(chat.answer).not.toMatch(/\(e\.g\.\s+The/);
    expect(
      quotableSentences('data traffic with a source IP other than its own. Port scans are logged and investigated. AWS WorkDocs offers near real-'),
    ).toEqual([
      { text: 'data traffic with a source IP other than its own.', whole: false },
      { text: 'Port scans are logged and investigated.', whole: true },
      { text: 'AWS WorkDocs offers near real-', whole: false },
    ]);
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

describe('chat sessions over HTTP', () => {
  it('resolves a follow-up in a persistent session against its earlier turns', async () => {
    const service = await startService();
    try {
      const api = client(service, await service.key({ org: 'northwind', user: 'analyst' }));
      const name = 'northwind-continuity-and-incidents.md';
      const upload = await api.post('/api/v2/repository/files/', files([name, readFileSync(path.resolve('scripts/demo/kb', name)), 'text/markdown']));
      expect((await waitForFile(api, upload.body.file_ids[0])).body.status).toBe('ready');

      const session = (await api.post('/api/v2/chat/sessions/', {})).body;
      const first = await api.post(`/api/v2/chat/sessions/${session.id}/messages/`, { message: 'Do you have an incident response plan?' });
      expect(first.body.messages[1].content).toMatch(/documented incident response plan/);
      const second = await api.post(`/api/v2/chat/sessions/${session.id}/messages/`, { message: 'How often is it tested?' });
      const reply = second.body.messages[3];
      expect(reply.metadata.resolved_query).toMatch(/incident/);
      expect(reply.content).toBe('The incident response plan is tested every year with a tabletop exercise.');
      expect(reply.sources[0].source_file).toBe(name);

      // The same words without the session have no subject: restores and the DR plan are tested too.
      const alone = await api.post('/api/v2/chat/ask/', { question: 'How often is it tested?' });
      expect(alone.body.answer).not.toContain('tabletop');
    } finally {
      await service.destroy();
    }
  });
});
