import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { strToU8 } from 'fflate';
import { extractDocument, KnowledgeBase, type Evidence, type ExtractedDocument } from '../../../src/service/knowledge';
import { PassagePrior, QuestionnaireTerms, ranked, retrieve, standingOf } from '../../../src/service/knowledge/retrieval';
import { ftsQuery, stem, stemmedTerms, textForIndex } from '../../../src/service/knowledge/text';
import type { PassageEntry } from '../../../src/service/storage/knowledge-index';
import { QUESTIONNAIRE_TOPICS } from '../helpers';
import { addText, meta, tempKb, YES_NO_SLOTS, type TempKb } from './helpers';

let t: TempKb;
beforeEach(async () => {
  t = await tempKb();
});
afterEach(() => t.close());

describe('search', () => {
  it('weighs terms by their rarity in the corpus: a passage holding only the words every policy holds ranks below the one on the subject', async () => {
    const topics = ['Vendor', 'Backup', 'Logging', 'Change', 'Asset', 'Training'];
    for (const [i, topic] of topics.entries()) {
      await addText(
        t.kb,
        meta({ file_id: i + 1, filename: `${topic}.md` }),
        `# ${topic} Policy\n\nThe ${topic.toLowerCase()} policies and procedures are reviewed and updated at least annually by the security team.`,
      );
    }
    await addText(
      t.kb,
      meta({ file_id: 10, filename: 'Password.md' }),
      '# Password Policy\n\nPasswords must be strong: at least 14 characters, checked against breached password lists.',
    );
    const question = 'Are strong password policies and procedures reviewed and updated at least annually?';
    const plain = await retrieve(t.index, 1, question, {}, { limit: 3, includeQa: false });
    expect(plain[0]!.evidence.filename).not.toBe('Password.md');
    const weighed = await retrieve(t.index, 1, question, {}, { limit: 3, includeQa: false, weighByRarity: true });
    expect(weighed[0]!.evidence.filename).toBe('Password.md');
  });

  it('finds spelled-out phrases by their acronym and numbered standards as one term', async () => {
    await addText(t.kb, meta({ file_id: 1, filename: 'access.md' }), '# Access\n\nAll staff sign in with multi-factor authentication and a hardware key.');
    await addText(t.kb, meta({ file_id: 2, filename: 'audit.md' }), '# Audits\n\nWe hold a SOC 2 Type II report covering security and availability.');
    await addText(t.kb, meta({ file_id: 3, filename: 'other.md' }), '# Other\n\nOur SOC 3 summary and 2 offices are listed here for marketing.');
    await addText(t.kb, meta({ file_id: 4, filename: 'crypto.md' }), '# Crypto\n\nVolumes use AES-256 encryption; keys rotate yearly.');

    const mfa = await t.kb.search(1, 'MFA', {});
    expect(mfa[0]).toMatchObject({ filename: 'access.md', rank: 1, type: 'passage' });

    const soc2 = await t.kb.search(1, 'Do you have a SOC 2 report?', {});
    expect(soc2[0]!.filename).toBe('audit.md');
    // "SOC 2" must not match "SOC 3 ... 2 offices" as well as the real SOC 2 passage.
    const other = soc2.find((e) => e.filename === 'other.md');
    expect(other === undefined || other.relevance_score < soc2[0]!.relevance_score).toBe(true);

    expect((await t.kb.search(1, 'AES 256', {}))[0]!.filename).toBe('crypto.md');
    await addText(t.kb, meta({ file_id: 5, filename: 'saml.md' }), '# Identity\n\nCustomers can enable single sign-on through SAML 2.0.');
    expect((await t.kb.search(1, 'Is SSO supported?', {}))[0]!.filename).toBe('saml.md');
  });

  it('stems words (porter) so "encrypted" finds "encryption"', async () => {
    await addText(t.kb, meta({ file_id: 1, filename: 'crypto.md' }), 'Encryption of backups is mandatory.');
    expect((await t.kb.search(1, 'are backups encrypted', {}))[0]!.filename).toBe('crypto.md');
  });

  it('never lets user text break the FTS query syntax', async () => {
    await addText(t.kb, meta({ file_id: 1, filename: 'a.md' }), 'Passwords are hashed with bcrypt and never logged.');
    const hostile = [
      '"',
      '""',
      '"unterminated',
      '*',
      'pass*',
      '-passwords',
      'NEAR(passwords hashed)',
      'passwords AND OR NOT',
      'passwords) OR (',
      '{col}: x',
      'col:passwords',
      '^passwords',
      "'; DROP TABLE kb_passages; --",
      '\u0000',
      '   ',
      '?',
    ];
    for (const query of hostile) {
      await expect(t.kb.search(1, query, {}), query).resolves.toBeDefined();
    }
    expect((await t.kb.search(1, 'NEAR(passwords hashed)', {}))[0]!.filename).toBe('a.md');
    expect(await t.kb.search(1, "'; DROP TABLE kb_passages; --", {})).toEqual([]);
    expect(await t.kb.search(1, 'passwords', {})).toHaveLength(1);
    expect(ftsQuery('say "hi" NEAR x*')).toBe('"say" OR "hi" OR "near"');
    expect(ftsQuery('the of and ?')).toBeNull();
  });

  it('filters by organisation, file, offerings (or company scope) and use_as_source', async () => {
    const text = 'Vulnerability scans run weekly across production.';
    await addText(t.kb, meta({ file_id: 1, filename: 'company.md', scope_includes_company: true }), text);
    await addText(t.kb, meta({ file_id: 2, filename: 'product-a.md', scope_includes_company: false, offering_ids: [10] }), text);
    await addText(t.kb, meta({ file_id: 3, filename: 'product-b.md', scope_includes_company: false, offering_ids: [20, 30] }), text);
    await addText(t.kb, meta({ file_id: 4, filename: 'not-a-source.md', use_as_source: false }), text);
    await addText(t.kb, meta({ org_id: 2, file_id: 5, filename: 'other-org.md' }), text);

    const names = async (filters: Parameters<typeof t.kb.search>[2], org = 1) =>
      (await t.kb.search(org, 'vulnerability scans', filters)).map((e) => e.filename).sort();

    expect(await names({})).toEqual(['company.md', 'product-a.md', 'product-b.md']);
    expect(await names({ file_id: 2 })).toEqual(['product-a.md']);
    expect(await names({ file_id: 5 })).toEqual([]);
    expect(await names({ offering_ids: [30] })).toEqual(['company.md', 'product-b.md']);
    expect(await names({ offering_ids: [10, 20] })).toEqual(['company.md', 'product-a.md', 'product-b.md']);
    expect(await names({ offering_ids: [99] })).toEqual(['company.md']);
    expect(await names({}, 2)).toEqual(['other-org.md']);
    expect(await names({}, 3)).toEqual([]);

    // Removal removes (metadata changes without re-indexing: the knowledge index's own test).
    await t.kb.removeFile(1, 1);
    expect(await names({})).not.toContain('company.md');
    expect(await t.query('SELECT COUNT(*) AS n FROM kb_passages WHERE file_id = 1')).toEqual([{ n: 0 }]);
  });

  it('ranks from 1 with relevance between 0 and 1, best first, and re-indexing replaces content', async () => {
    await addText(t.kb, meta({ file_id: 1, filename: 'a.md' }), '# Logging\n\nSecurity logs are retained for one year in the SIEM.');
    await addText(t.kb, meta({ file_id: 2, filename: 'b.md' }), '# Misc\n\nOne year of coffee.');
    const results = await t.kb.search(1, 'How long are security logs retained?', {});
    expect(results.map((r) => r.rank)).toEqual(results.map((_, i) => i + 1));
    for (const r of results) expect(r.relevance_score).toBeGreaterThanOrEqual(0), expect(r.relevance_score).toBeLessThanOrEqual(1);
    expect(results[0]).toMatchObject({ filename: 'a.md', context_header: 'Logging', section_path: ['Logging'] });
    expect(results[0]!.relevance_score).toBeGreaterThan(0.7);
    // SIEM is found by its spelled-out form too.
    expect((await t.kb.search(1, 'security information and event management', {}))[0]!.filename).toBe('a.md');

    await addText(t.kb, meta({ file_id: 1, filename: 'a.md' }), 'Nothing about that any more.');
    expect((await t.kb.search(1, 'security logs retained', {})).map((r) => r.filename)).not.toContain('a.md');
  });
});

describe('search on a large knowledge base', () => {
  /** One document of `n` passages under their own headings. */
  function manyPassages(n: number, text: (i: number) => string): ExtractedDocument {
    const blocks = Array.from({ length: n }, (_, i) => [
      { level: 1, text: `Section ${i}` },
      { level: 0, text: text(i) },
    ]).flat();
    return { file_format: 'txt', document_type: 'documentation', qa: [], pages: [{ page_number: 1, text: '', blocks }] };
  }

  it('still finds the passage holding the rare terms when common ones are left out of the query', async () => {
    // 2,000 passages that all say "policy", "review", "security": past the row budget, so those
    // terms no longer widen the search, while the rare ones still find their passage.
    await t.kb.indexDocument(
      meta({ file_id: 1, filename: 'filler.md' }),
      manyPassages(2000, (i) => `The security policy number ${i} is subject to review by the policy owner and the security team.`),
    );
    await addText(
      t.kb,
      meta({ file_id: 2, filename: 'ir.md' }),
      '# Incident response\n\nThe incident response policy is reviewed through a tabletop exercise every year.',
    );
    const hits = await t.kb.search(1, 'Is the incident response security policy reviewed with a tabletop exercise?', {});
    expect(hits[0]).toMatchObject({ filename: 'ir.md', rank: 1 });

    // A question made only of common terms still gets results.
    expect((await t.kb.search(1, 'security policy review', {})).length).toBeGreaterThan(0);

    // New content is found at once (cached statistics are dropped on indexing) and removal removes it.
    await addText(t.kb, meta({ file_id: 3, filename: 'dlp.md' }), '# DLP\n\nA data loss prevention agent quarantines outbound spreadsheets with card numbers.');
    expect((await t.kb.search(1, 'Does the security policy quarantine outbound spreadsheets?', {}))[0]!.filename).toBe('dlp.md');
    await t.kb.removeFile(1, 3);
    expect((await t.kb.search(1, 'Does the security policy quarantine outbound spreadsheets?', {})).map((e) => e.filename)).not.toContain('dlp.md');
  });
});

describe('search past 50,000 passages', () => {
  function entry(content: string): PassageEntry {
    return {
      page_number: 1,
      section_path: ['Notes'],
      context_header: 'Notes',
      content,
      stems: [...stemmedTerms(`Notes\n${content}`)].join(' '),
      index_header: textForIndex('Notes'),
      index_body: textForIndex(content),
      embedding: null,
    };
  }

  it("finds the one passage holding all of the question's words when each of them is in a third of the rows", async () => {
    // Each word alone is in 17,000 rows: too many to score, so the search asks for rows holding them together.
    const words = ['turbine', 'glacier', 'lantern'];
    const filler = Array.from({ length: 51_000 }, (_, i) => entry(`Entry ${i} mentions the ${words[i % 3]} once.`));
    await t.index.replaceFile(meta({ file_id: 1, filename: 'target.md' }), [entry('The turbine, the glacier and the lantern are inspected together.')], []);
    await t.index.replaceFile(meta({ file_id: 2, filename: 'filler.md' }), filler, []);
    await t.index.replaceFile(
      meta({ org_id: 2, file_id: 3, filename: 'other-org.md' }),
      [entry('The turbine, the glacier and the lantern of another organisation.')],
      [],
    );
    const hits = await t.kb.search(1, 'Is there a turbine, a glacier and a lantern?', {});
    expect(hits[0]).toMatchObject({ filename: 'target.md', rank: 1 });
    expect(hits.map((h) => h.filename)).not.toContain('other-org.md');
  }, 120_000);
});

describe('knowledge index term statistics', () => {
  it('are cached, and dropped on indexing, on removal and when another connection writes', async () => {
    const index = t.index;
    await addText(t.kb, meta({ file_id: 1, filename: 'a.md' }), 'Backups are encrypted with AES-256.');
    expect(await index.termDocs('passages', [{ stem: 'backup', word: 'backups' }])).toEqual([1]);
    expect(await index.orgRows('passages', 1)).toBe(1);

    await addText(t.kb, meta({ file_id: 2, filename: 'b.md' }), 'Backups are tested every quarter.');
    expect(await index.termDocs('passages', [{ stem: 'backup', word: 'backups' }])).toEqual([2]);
    expect(await index.orgRows('passages', 1)).toBe(2);

    await t.kb.removeFile(1, 2);
    expect(await index.termDocs('passages', [{ stem: 'backup', word: 'backups' }])).toEqual([1]);
    expect(await index.orgRows('passages', 1)).toBe(1);

    // Another process on the same database file: seen at the next search.
    const other = await t.second();
    try {
      await addText(new KnowledgeBase(other.index), meta({ file_id: 3, filename: 'c.md' }), 'Backups are kept for 30 days.');
    } finally {
      await other.close();
    }
    await t.kb.search(1, 'backups', {});
    expect(await index.termDocs('passages', [{ stem: 'backup', word: 'backups' }])).toEqual([2]);
    expect((await t.kb.search(1, 'how long are backups kept', {}))[0]!.filename).toBe('c.md');
  });
});

describe('ranking rules for a questionnaire question', () => {
  const SLOTS = [
    { role: 'answer', header: 'Answer', coordinate: 'C2', type: 'list' as const, allowed_values: ['Yes', 'No'] },
    { role: 'comment', header: 'Comment', coordinate: 'D2' },
  ];

  it('counts a paraphrase of a question\'s word as the word, both ways: "retrieve" finds "exported", "destruction" finds "destroy"', async () => {
    await addText(t.kb, meta({ file_id: 1, filename: 'portability.md' }), '# Portability\n\nCustomer data can be exported at any time from the admin console.');
    await addText(t.kb, meta({ file_id: 2, filename: 'logs.md' }), '# Logs\n\nWe retrieve service logs daily; their data feeds the dashboards.');
    await addText(t.kb, meta({ file_id: 3, filename: 'keys.md' }), '# Keys\n\nDestroy the old key wherever it was held in custody, and record who did it.');
    await addText(t.kb, meta({ file_id: 4, filename: 'testing.md' }), '# Testing\n\nProcedures for cryptographic testing are written down.');
    const top = async (question: string, paraphrases: boolean) =>
      (await retrieve(t.index, 1, question, {}, { limit: 2, includeQa: false, weighByRarity: true, paraphrases }))[0]?.evidence.filename;
    expect(await top('Can CSCs retrieve their data?', false)).toBe('logs.md');
    expect(await top('Can CSCs retrieve their data?', true)).toBe('portability.md');
    expect(await top('Are there procedures for cryptographic key destruction?', false)).toBe('testing.md');
    expect(await top('Are there procedures for cryptographic key destruction?', true)).toBe('keys.md');
  });

  it('weighs down the words the questionnaire asks every question with, learned from its questions', async () => {
    const topics = QUESTIONNAIRE_TOPICS;
    await addText(
      t.kb,
      meta({ file_id: 1, filename: 'list.md' }),
      '# Policies\n\nPolicies and procedures are in place for assets, access, backups and changes; each policy is approved.',
    );
    await addText(
      t.kb,
      meta({ file_id: 2, filename: 'malware.md' }),
      '# Endpoints\n\nAnti-malware protection is installed on every laptop and scans files daily.',
    );
    for (let i = 0; i < 8; i++)
      await addText(
        t.kb,
        meta({ file_id: 10 + i, filename: `other${i}.md` }),
        `# Other ${i}\n\nThe office ${i} has a kitchen, a garden and meeting rooms for visitors.`,
      );
    const queries = topics.map((topic) => `Are policies and procedures for ${topic} protection in place?`);
    const asked = QuestionnaireTerms.learn(queries);
    expect(asked.weight(stem('policies'))).toBeLessThan(0.5);
    expect(asked.weight(stem('malware'))).toBe(1);
    const question = 'Are policies and procedures for malware protection in place?';
    const plain = await retrieve(t.index, 1, question, {}, { limit: 2, includeQa: false, weighByRarity: true });
    expect(plain[0]!.evidence.filename).toBe('list.md');
    const weighed = await retrieve(t.index, 1, question, {}, { limit: 2, includeQa: false, weighByRarity: true, asked });
    expect(weighed[0]!.evidence.filename).toBe('malware.md');
    // Too few questions teach nothing.
    expect(QuestionnaireTerms.learn(queries.slice(0, 5)).weight(stem('policies'))).toBe(1);
  });

  it("demotes a passage among the first of far more of the questionnaire's questions than passages usually are", () => {
    const candidate = (id: number, relevance: number) => ({
      evidence: { type: 'passage', passage_id: id, relevance_score: relevance } as Evidence,
      stems: new Set<string>(),
      fusion: 0,
    });
    // Passage 1 is among the first six of every question; 100 + q and 200 + q of their own question only.
    const rankings = Array.from({ length: 30 }, (_, q) => [candidate(1, 0.9), candidate(100 + q, 0.8), candidate(200 + q, 0.7)]);
    const prior = PassagePrior.learn(rankings);
    expect(prior.weight(1)).toBeLessThan(0.85);
    expect(prior.weight(100)).toBe(1);
    const [hub, own] = prior.apply([candidate(1, 0.9), candidate(100, 0.8)]);
    expect(standingOf(hub!)).toBeLessThan(standingOf(own!));
    expect(hub!.evidence.relevance_score).toBe(0.9);
    expect(PassagePrior.learn(rankings.slice(0, 10)).weight(1)).toBe(1);
  });

  it('learns the prior from every question of a questionnaire: the passage first for all of them gives way to the one on the subject (and does not without the prior)', async () => {
    const topics = QUESTIONNAIRE_TOPICS;
    // Each question's own subject word ("backupplan"), so each has passages of its own after the one on every subject.
    const own = (topic: string) => `${topic}plan`;
    await addText(
      t.kb,
      meta({ file_id: 1, filename: 'everything.md' }),
      `# Controls\n\nThe security team reviews the ${topics.map(own).join(', ')} every year.`,
    );
    for (const [i, topic] of topics.entries()) {
      await addText(t.kb, meta({ file_id: 10 + i, filename: `${topic}.md` }), `# ${topic}\n\nThe ${own(topic)} is reviewed for security by a named engineer.`);
      await addText(t.kb, meta({ file_id: 50 + i, filename: `${topic}-owner.md` }), `# Owner\n\nThe ${own(topic)} team owns the ${own(topic)}.`);
    }
    for (let i = 0; i < 10; i++)
      await addText(t.kb, meta({ file_id: 100 + i, filename: `team${i}.md` }), `# Team ${i}\n\nThe team meets on Mondays in room ${i}.`);
    const search = (topic: string) =>
      retrieve(t.index, 1, `Is the ${own(topic)} reviewed by the security team?`, {}, { limit: 10, includeQa: false, weighByRarity: true });
    const rankings = await Promise.all(topics.map(search));
    expect(rankings.every((r) => r[0]!.evidence.filename === 'everything.md')).toBe(true);
    const prior = PassagePrior.learn(rankings);
    const first = await search('backup');
    expect(ranked(prior.apply(first), 3)[0]!.evidence.filename).toBe('backup.md');
    // Its relevance (what evidence must reach to be shown) is unchanged; only its standing is weighed.
    expect(first.find((c) => c.evidence.filename === 'everything.md')!.evidence.relevance_score).toBe(rankings[0]![0]!.evidence.relevance_score);
    expect(ranked(PassagePrior.none.apply(await search('backup')), 3)[0]!.evidence.filename).toBe('everything.md');
  });

  it('fills a questionnaire with the prior learned from all its searches', async () => {
    const topics = QUESTIONNAIRE_TOPICS;
    await addText(t.kb, meta({ file_id: 1, filename: 'everything.md' }), `# Controls\n\nThe security team reviews ${topics.join(', ')} controls every year.`);
    for (const [i, topic] of topics.entries()) {
      await addText(t.kb, meta({ file_id: 10 + i, filename: `${topic}.md` }), `# ${topic}\n\nThe ${topic} controls are owned by a named engineer.`);
    }
    const questions = topics.map((topic) => ({ text: `Are ${topic} controls reviewed by the security team?`, answer_slots: SLOTS }));
    const questionnaire = await t.kb.searchQuestionnaire(1, questions, {});
    const hubId = (await t.query<{ id: number }>("SELECT id FROM kb_passages WHERE content LIKE 'The security team reviews%'"))[0]!.id;
    expect(questionnaire.prior.weight(Number(hubId))).toBeLessThan(1);
    // Another organisation, other filters: the searches are not reused.
    expect(questionnaire.take(2, {}, 'x')).toBeUndefined();
  });
});

describe('a questionnaire the answer library answers in part', () => {
  it('searches passages up front only for the questions the library does not answer, and answers the others from what it found', async () => {
    const csv =
      'ID,Question,Answer,Additional Information\n' +
      'DATA-02,Is customer data encrypted at rest?,Yes,AES-256 on all storage volumes.\n' +
      'HLAP-01,Do you support role-based access control (RBAC) for end users?,Yes,Admins assign custom roles.\n';
    await t.kb.indexDocument(meta({ file_id: 100, filename: 'answers.csv' }), await extractDocument(strToU8(csv), 'answers.csv'));
    await addText(
      t.kb,
      meta({ file_id: 1, filename: 'overview.md' }),
      '# Backups\n\nCustomer data is encrypted at rest. Backups run nightly and restores are tested quarterly.',
    );
    const fromLibrary = [
      { text: 'Is customer data encrypted at rest?', original_id: 'DATA-02', answer_slots: YES_NO_SLOTS },
      { text: 'Do you support role-based access control (RBAC) for end users?', original_id: 'HLAP-01', answer_slots: YES_NO_SLOTS },
    ];
    const backups = { text: 'Are backup restores tested?', original_id: 'BCP-01', answer_slots: YES_NO_SLOTS };
    const searches = vi.spyOn(t.index, 'search');
    const count = (kind: 'passages' | 'qa') => searches.mock.calls.filter(([query]) => query.kind === kind).length;

    await t.kb.searchQuestionnaire(1, [backups], {});
    const alone = count('passages');
    expect(alone).toBeGreaterThan(0);
    searches.mockClear();
    // The two questions the library answers add no passage search.
    const questionnaire = await t.kb.searchQuestionnaire(1, [...fromLibrary, backups], {});
    expect(count('passages')).toBe(alone);

    searches.mockClear();
    for (const q of fromLibrary) {
      const answer = await t.kb.answerQuestion(1, q, {}, { questionnaire });
      expect(answer.method).toBe('library');
      expect(answer.slot_responses[0]).toEqual({ slot_key: 'answer', content: 'Yes' });
    }
    const answer = await t.kb.answerQuestion(1, backups, {}, { questionnaire });
    expect(answer.evidence[0]?.filename).toBe('overview.md');
    // Every answer came from what was found up front: no second library lookup, no passage search.
    expect(count('qa')).toBe(0);
    expect(count('passages')).toBe(0);
  });
});
