/**
 * What a language model is given for a questionnaire question is the questionnaire search's pool (the
 * passage prior learned from every question, a third party's passages discounted), the same evidence the
 * extractive answer reads, not a plain search of the question. Read back from the requests a loopback stub
 * model recorded during a fill.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { call, client, files, QUESTIONNAIRE_TOPICS, questionnaireXlsx, startService, waitForComplete, waitForFile, type Service } from '../helpers';
import { startStubModel, type ModelInput, type StubModel } from './stub-model';

const TOPICS = QUESTIONNAIRE_TOPICS;
const plan = (topic: string) => `${topic}plan`;
const OWN_BACKUP = 'The backupplan is reviewed for security by a named engineer.';

let stub: StubModel | null = null;
let service: Service | null = null;
const saved = { ...process.env };

afterEach(async () => {
  await service?.destroy();
  service = null;
  await stub?.close();
  stub = null;
  for (const k of Object.keys(process.env)) if (k.startsWith('QFILL_LLM_')) delete process.env[k];
  Object.assign(process.env, saved);
});

async function upload(api: ReturnType<typeof client>, name: string, text: string): Promise<void> {
  const up = await api.post('/api/v2/repository/files/', files([name, text, 'text/markdown']));
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  const done = await waitForFile(api, up.body.file_ids[0] as number);
  expect(done.body.status, JSON.stringify(done.body)).toBe('ready');
}

describe('the evidence a language model is given', () => {
  it("is the questionnaire search's top passages: the organisation's own passage on the subject first, not the passage matching every question nor a third party's", async () => {
    stub = await startStubModel();
    // One question per request, so each recorded request is exactly what one question was given.
    Object.assign(process.env, { QFILL_LLM_BASE_URL: stub.url, QFILL_LLM_MODEL: 'stub-llm', QFILL_LLM_BATCH_QUESTIONS: '1' });
    service = await startService();
    const key = await service.key({ org: 'acme', user: 'alice', role: 'admin' });
    const api = client(service, key);
    expect((await call(service.base, key, 'PUT', '/api/v2/organisation/names/', { names: ['Acme'] })).status).toBe(200);

    // Holds every question's words: without the prior it is first for every question.
    await upload(api, 'everything.md', `# Controls\n\nThe security team reviews the ${TOPICS.map(plan).join(', ')} every year.`);
    for (const topic of TOPICS) {
      await upload(api, `${topic}.md`, `# ${topic}\n\nThe ${plan(topic)} is reviewed for security by a named engineer.`);
      // A second passage of each subject's own, so a third party's passage is not among the first of every question.
      await upload(api, `${topic}-owner.md`, `# Owner\n\nThe ${plan(topic)} team owns the ${plan(topic)}.`);
    }
    // A third party's report holding all of the backup question's words: without its discount (0.7) it is first.
    await upload(
      api,
      'globex-report.md',
      '# Report on the Globex System\n\nGlobex is a hosting provider.\n\n## Backups\n\nAt Globex the backupplan is reviewed by the security team every quarter.',
    );
    // A template's placeholder on the subject is nobody's evidence.
    await upload(api, 'backup-template.md', '# Backup procedure\n\n[FILL IN: who reviews the backupplan] reviews the backupplan with the security team.');

    const questions = TOPICS.map((topic, i): [string, string] => [`Q-${i + 1}`, `Is the ${plan(topic)} reviewed by the security team?`]);
    const up = await api.post('/api/v2/filler/questionnaires/', files(['q.xlsx', await questionnaireXlsx([{ name: 'Security', sections: [{ questions }] }])]));
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    await waitForComplete(api, up.body.questionnaire_ids[0] as number);

    const asked = (text: string): ModelInput => {
      const found = stub!.requests.filter((r) => r.questions.some((q) => q.text === text));
      expect(found, `requests for "${text}"`).toHaveLength(1);
      return found[0]!;
    };
    const backup = asked('Is the backupplan reviewed by the security team?');
    expect(backup.questions).toHaveLength(1);
    expect(backup.evidence[0]?.text).toBe(OWN_BACKUP);
    const globex = backup.evidence.findIndex((e) => e.text.includes('At Globex'));
    expect(globex).toBeGreaterThan(0);
    expect(backup.evidence[globex]!.label).toMatch(/third party: Globex/);
    const hub = backup.evidence.findIndex((e) => e.text.startsWith('The security team reviews'));
    expect(hub === -1 || hub > 0).toBe(true);
    // Every question was given its own passage first; no template text reached the model.
    for (const topic of TOPICS) {
      expect(asked(`Is the ${plan(topic)} reviewed by the security team?`).evidence[0]?.text).toBe(
        `The ${plan(topic)} is reviewed for security by a named engineer.`,
      );
    }
    expect(stub.requests.some((r) => r.prompt.includes('FILL IN'))).toBe(false);
  }, 120_000);
});
