import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Progress, Questionnaire, QuestionnaireUploadResult, QuestionWithAnswers, SourceEvidence, Structure, readEvaluation } from '../../src/api/schemas';
import { addTeamMember, ensureUser } from '../../src/service/admin';
import {
  client,
  expectError,
  expectShape,
  files,
  questionnaireXlsx,
  SECURITY_SHEET,
  startWithTwoOrgs,
  waitFor,
  waitForComplete,
  uploadKnowledge,
  type Service,
} from './helpers';

let service: Service;
let api: ReturnType<typeof client>;
let other: ReturnType<typeof client>;

const TWO_TABS = [
  SECURITY_SHEET,
  {
    name: 'Privacy',
    sections: [
      {
        title: 'Data handling',
        questions: [
          ['PR-1', 'How long are backups retained?'],
          ['PR-2', 'Do you sell customer data to third parties?', 'No', 'We never sell or share customer data.'],
        ] as [string, string, string?, string?][],
      },
    ],
  },
];

async function upload(c: ReturnType<typeof client>, form: FormData) {
  const res = await c.post('/api/v2/filler/questionnaires/', form);
  return res;
}

beforeAll(async () => {
  ({ service, api, other } = await startWithTwoOrgs('gary'));
  await uploadKnowledge(api);
});

afterAll(async () => {
  await service.destroy();
});

describe('questionnaire upload and generation', () => {
  let id: number;
  let answers: any[];

  beforeAll(async () => {
    const form = files(['vendor.xlsx', await questionnaireXlsx(TWO_TABS)]);
    form.append('client', 'Initech');
    const res = await upload(api, form);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const result = expectShape(QuestionnaireUploadResult, res.body);
    expect(result.questionnaire_ids).toHaveLength(1);
    expect(result.file_ids).toHaveLength(1);
    id = result.questionnaire_ids[0]!;

    const ORDER = ['idle', 'generating', 'complete'];
    const seen: { status: string; received: number }[] = [];
    await waitFor(
      'generation',
      () => api.get(`/api/v2/filler/questionnaires/${id}/answer-progress/`),
      (r) => {
        const p = expectShape(Progress, r.body);
        expect(p.answers_expected).toBe(6);
        expect(p.answers_received).toBeLessThanOrEqual(p.answers_expected);
        seen.push({ status: p.status, received: p.answers_received });
        return p.status === 'complete';
      },
    );
    for (let i = 1; i < seen.length; i++) {
      expect(ORDER.indexOf(seen[i]!.status)).toBeGreaterThanOrEqual(ORDER.indexOf(seen[i - 1]!.status));
      expect(seen[i]!.received).toBeGreaterThanOrEqual(seen[i - 1]!.received);
    }
    answers = (await api.get(`/api/v2/filler/questionnaires/${id}/answers/`)).body;
  });

  it('reports complete progress', async () => {
    const p = (await api.get(`/api/v2/filler/questionnaires/${id}/answer-progress/`)).body;
    expect(p).toEqual({ status: 'complete', answers_expected: 6, answers_received: 6, percent: 100 });
  });

  it('returns the questionnaire with its details', async () => {
    const res = await api.get(`/api/v2/filler/questionnaires/${id}/`);
    const q = expectShape(Questionnaire, res.body);
    expect(q.file).toMatchObject({ original_filename: 'vendor.xlsx', file_format: 'excel' });
    expect(q).toMatchObject({
      client: 'Initech',
      visibility: 'organization',
      user: 'alice',
      owner: 'alice',
      answers_count: 6,
      approved_count: 0,
      my_role: 'owner',
      detected_language: 'en',
      effective_language: 'en',
      can_edit: true,
      status: 'ready',
    });
    const list = await api.get('/api/v2/filler/questionnaires/');
    expect(list.status).toBe(200);
    expect(list.body.map((x: any) => x.id)).toContain(id);
    for (const item of list.body) expectShape(Questionnaire, item);
  });

  it('returns every question with its slots, answer, evaluation and evidence', () => {
    expect(answers).toHaveLength(6);
    for (const a of answers) expectShape(QuestionWithAnswers, a);
    expect(answers.map((a) => a.original_id)).toEqual(['AC-1', 'AC-2', 'EN-1', 'EN-2', 'PR-1', 'PR-2']);
    expect(answers.map((a) => a.order)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(answers[0]).toMatchObject({ tab_name: 'Security', section_path: ['Access Control'], needs_filling: true });
    expect(answers[5]).toMatchObject({ tab_name: 'Privacy', needs_filling: false });
    for (const a of answers) {
      expect(a.answers).toHaveLength(1);
      expect(a.selected_answer_id).toBe(a.answers[0].id);
      expect(readEvaluation(a.answers[0].evaluation)).not.toBeNull();
    }
    const encrypted = answers.find((a) => a.original_id === 'EN-1')!;
    expect(encrypted.answers[0].text).toMatch(/AES-256/);
    const evidence = encrypted.answers[0].source_evidence;
    expect(evidence.length).toBeGreaterThan(0);
    for (const e of evidence) {
      const ev = expectShape(SourceEvidence, e);
      expect(ev.filename).toBe('security.txt');
      expect(ev.rank).toBeGreaterThanOrEqual(1);
      expect(Date.parse(ev.created_at)).not.toBeNaN();
    }
  });

  it('filters answers by tab and section', async () => {
    const get = async (q: string) => (await api.get(`/api/v2/filler/questionnaires/${id}/answers/?${q}`)).body.map((a: any) => a.original_id);
    expect(await get('tab=Privacy')).toEqual(['PR-1', 'PR-2']);
    expect(await get('section=Encryption')).toEqual(['EN-1', 'EN-2']);
    expect(await get('tab=Security&section=Access%20Control')).toEqual(['AC-1', 'AC-2']);
    expect(await get('tab=Privacy&section=Encryption')).toEqual([]);
    expect(await get('tab=Nope')).toEqual([]);
  });

  it('computes the structure from the data', async () => {
    const res = await api.get(`/api/v2/filler/questionnaires/${id}/structure/`);
    const s = expectShape(Structure, res.body);
    expect(s.tabs).toEqual([
      { tab_name: 'Security', question_count: 4, needs_filling_count: 4 },
      { tab_name: 'Privacy', question_count: 2, needs_filling_count: 1 },
    ]);
    expect(s.total_question_count).toBe(6);
    expect(s.total_needs_filling_count).toBe(5);
    expect(s.groups.map((g) => [g.tab_name, g.section_path, g.question_count, g.display_order])).toEqual([
      ['Security', ['Access Control'], 2, 1],
      ['Security', ['Encryption'], 2, 3],
      ['Privacy', ['Data handling'], 2, 5],
    ]);
    expect(s.groups[0]!.answer_slots.map((x) => [x.role, x.header, x.coordinate])).toEqual([
      ['answer', 'Answer', 'C'],
      ['comment', 'Comments', 'D'],
    ]);
    for (const g of s.groups) {
      expect(Object.keys(g.filter_counts).sort()).toEqual(['approved', 'low_trust', 'needs_review', 'not_approved']);
      expect(g.filter_counts.approved! + g.filter_counts.not_approved!).toBe(g.question_count);
    }

    // Quick filters agree with the answers.
    const evals = answers.map((a) => readEvaluation(a.answers[0].evaluation)!);
    const q = s.quick_filter_counts;
    expect(q.trustLow).toBe(evals.filter((e) => e.trust === 'low').length);
    expect(q.trustMedium).toBe(evals.filter((e) => e.trust === 'medium').length);
    expect(q.trustHigh).toBe(evals.filter((e) => e.trust === 'high').length);
    expect(q.scoreLow).toBe(evals.filter((e) => e.score < 50).length);
    expect(q.scoreMedium).toBe(evals.filter((e) => e.score >= 50 && e.score < 80).length);
    expect(q.scoreHigh).toBe(evals.filter((e) => e.score >= 80).length);
    expect(q.approved).toBe(0);
    expect(q.notApproved).toBe(6);
    expect(q.needsReview).toBe(answers.filter((a) => a.flagged_for_review).length);
    const lowCoverage = answers.filter(
      (a) =>
        a.needs_filling &&
        a.answer_slots
          .filter((slot: any) => !slot.is_blocked && !slot.value)
          .some((slot: any) => !a.answers[0].slot_responses.some((r: any) => r.slot_key === slot.role && r.content.trim() !== '')),
    ).length;
    expect(q.lowCoverage).toBe(lowCoverage);
    expect(s.avg_score).toBe(Math.round(evals.reduce((sum, e) => sum + e.score, 0) / evals.length));
  });

  it('hides it from another organization', async () => {
    for (const path of ['', 'answer-progress/', 'answers/', 'structure/']) {
      expectError(await other.get(`/api/v2/filler/questionnaires/${id}/${path}`), 404, /questionnaire/);
    }
    expect((await other.get('/api/v2/filler/questionnaires/')).body.some((x: any) => x.id === id)).toBe(false);
  });
});

describe('questionnaire upload variants', () => {
  it('accepts csv files and several files in one request', async () => {
    const csv = 'ID,Question,Answer\nQ1,Do you have a security policy?,\nQ2,Do you encrypt backups?,\n';
    const res = await upload(api, files(['short.csv', csv, 'text/csv'], ['book.xlsx', await questionnaireXlsx([SECURITY_SHEET])]));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.questionnaire_ids).toHaveLength(2);
    expect(new Set(res.body.file_ids).size).toBe(2);
    const [csvId, xlsxId] = res.body.questionnaire_ids;
    expect((await waitForComplete(api, csvId)).body.answers_received).toBe(2);
    expect((await waitForComplete(api, xlsxId)).body.answers_received).toBe(4);
  });

  it('detects the language from the questions, and honours an override', async () => {
    const german = await questionnaireXlsx([
      {
        name: 'Fragen',
        sections: [
          {
            questions: [
              ['F-1', 'Werden die Daten der Kunden verschlüsselt und wie ist das geregelt?'],
              ['F-2', 'Ist die Zwei-Faktor-Authentifizierung für die Administratoren eingerichtet?'],
              ['F-3', 'Wie oft werden die Zugriffsrechte der Benutzer überprüft?'],
            ],
          },
        ],
      },
    ]);
    const res = await upload(api, files(['fragen.xlsx', german]));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const q = (await api.get(`/api/v2/filler/questionnaires/${res.body.questionnaire_ids[0]}/`)).body;
    expect(q.detected_language).toBe('de');
    expect(q.effective_language).toBe('de');

    const form = files(['fragen.xlsx', german]);
    form.append('advanced_options', JSON.stringify({ language: 'en' }));
    const res2 = await upload(api, form);
    const q2 = (await api.get(`/api/v2/filler/questionnaires/${res2.body.questionnaire_ids[0]}/`)).body;
    expect(q2).toMatchObject({ detected_language: 'de', effective_language: 'en' });
  });

  it("rejects a file the detector cannot read, with the detector's reason, creating nothing", async () => {
    const before = (await api.get('/api/v2/filler/questionnaires/')).body.length;
    const res = await upload(api, files(['notes.csv', 'hello\nworld\n', 'text/csv']));
    expectError(res, 400, /^files: notes\.csv: No questionnaire found/);
    // One bad file in a batch rejects the batch.
    const mixed = await upload(api, files(['ok.xlsx', await questionnaireXlsx([SECURITY_SHEET])], ['notes.csv', 'hello\nworld\n']));
    expectError(mixed, 400, /notes\.csv/);
    expectError(await upload(api, files(['doc.pdf', '%PDF-1.4'])), 400, /unsupported file type \.pdf/);
    expectError(await upload(api, files(['empty.xlsx', ''])), 400, /empty file/);
    expectError(await upload(api, files(['junk.xlsx', 'not a zip file'])), 400, /junk\.xlsx/);
    expect((await api.get('/api/v2/filler/questionnaires/')).body.length).toBe(before);
  });

  it('validates the upload fields', async () => {
    const book = await questionnaireXlsx([SECURITY_SHEET]);
    const withField = (name: string, value: string) => {
      const f = files(['q.xlsx', book]);
      f.append(name, value);
      return f;
    };
    expectError(await upload(api, withField('client', 'c'.repeat(201))), 400, /^client:/);
    expectError(await upload(api, withField('visibility', 'public')), 400, /^visibility:/);
    expectError(await upload(api, withField('visibility', 'team')), 400, /^team_id: required/);
    expectError(await upload(api, withField('team_id', '999')), 400, /^team_id: unknown team 999/);
    expectError(await upload(api, withField('team_id', 'abc')), 400, /^team_id:/);
    expectError(await upload(api, withField('reviewer_ids', '4242')), 400, /^reviewer_ids: unknown user 4242/);
    expectError(await upload(api, withField('advanced_options', '{not json')), 400, /^advanced_options:/);
    expectError(await upload(api, withField('advanced_options', '{"offering_ids":[77]}')), 400, /unknown offering 77/);
    expectError(await upload(api, withField('document_type', 'novel')), 400, /^document_type:/);
    expectError(await upload(api, withField('surprise', '1')), 400, /^surprise: unknown field$/);

    const reviewer = await ensureUser(service.storage, { org: 'acme', user: 'rita', firstName: 'Rita', lastName: 'Reviewer' });
    const ok = await upload(api, withField('reviewer_ids', String(reviewer)));
    expect(ok.status).toBe(200);
    const q = (await api.get(`/api/v2/filler/questionnaires/${ok.body.questionnaire_ids[0]}/`)).body;
    expect(q.reviewers).toEqual(['Rita Reviewer']);
  });
});

describe('team visibility', () => {
  it('shows a team questionnaire only to team members, and filters the list', async () => {
    const teamId = await addTeamMember(service.storage, { org: 'acme', team: 'Red', user: 'alice' });
    await addTeamMember(service.storage, { org: 'acme', team: 'Red', user: 'carol' });
    const carol = client(service, await service.key({ org: 'acme', user: 'carol' }));
    const dave = client(service, await service.key({ org: 'acme', user: 'dave' }));

    const form = files(['team.xlsx', await questionnaireXlsx([SECURITY_SHEET])]);
    form.append('visibility', 'team');
    form.append('team_id', String(teamId));
    const res = await upload(api, form);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const id = res.body.questionnaire_ids[0];

    const seenByCarol = await carol.get(`/api/v2/filler/questionnaires/${id}/`);
    expect(seenByCarol.status).toBe(200);
    expect(seenByCarol.body).toMatchObject({ visibility: 'team', teams: [{ id: teamId, name: 'Red' }], my_role: 'team_member' });
    for (const path of ['', 'answer-progress/', 'answers/', 'structure/']) {
      expectError(await dave.get(`/api/v2/filler/questionnaires/${id}/${path}`), 404);
    }
    expect((await dave.get('/api/v2/filler/questionnaires/')).body.some((x: any) => x.id === id)).toBe(false);

    const teamList = (await carol.get(`/api/v2/filler/questionnaires/?team_id=${teamId}`)).body;
    expect(teamList.map((x: any) => x.id)).toEqual([id]);
    const byVisibility = (await carol.get('/api/v2/filler/questionnaires/?visibility=team')).body;
    expect(byVisibility.map((x: any) => x.id)).toEqual([id]);
    const orgOnly = (await carol.get('/api/v2/filler/questionnaires/?visibility=organization')).body;
    expect(orgOnly.some((x: any) => x.id === id)).toBe(false);
    expect((await dave.get(`/api/v2/filler/questionnaires/?team_id=${teamId}`)).body).toEqual([]);

    // Dave is not in the team, so he cannot upload for it.
    const daveForm = files(['team.xlsx', await questionnaireXlsx([SECURITY_SHEET])]);
    daveForm.append('visibility', 'team');
    daveForm.append('team_id', String(teamId));
    expectError(await upload(dave, daveForm), 400, /not a member/);
    // A team of another organization is unknown here.
    const globexTeam = await addTeamMember(service.storage, { org: 'globex', team: 'Blue', user: 'gary' });
    const cross = files(['team.xlsx', await questionnaireXlsx([SECURITY_SHEET])]);
    cross.append('team_id', String(globexTeam));
    expectError(await upload(api, cross), 400, /unknown team/);
    expectError(await api.get('/api/v2/filler/questionnaires/?visibility=everyone'), 400, /^visibility:/);
    expectError(await api.get('/api/v2/filler/questionnaires/?team_id=x'), 400, /^team_id:/);
  });
});

describe('macro-enabled workbooks', () => {
  it('accepts an .xlsm questionnaire and finds its questions', async () => {
    const res = await api.post('/api/v2/filler/questionnaires/', files(['vendor.xlsm', await questionnaireXlsx([SECURITY_SHEET])]));
    expect(res.status).toBe(200);
    const qid = res.body.questionnaire_ids[0];
    const answers = await api.get(`/api/v2/filler/questionnaires/${qid}/answers/`);
    expect(answers.body.map((q: { original_id: string }) => q.original_id)).toEqual(['AC-1', 'AC-2', 'EN-1', 'EN-2']);
  });
});
