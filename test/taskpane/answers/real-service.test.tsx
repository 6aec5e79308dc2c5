// @vitest-environment happy-dom
// @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
/**
 * The Answers view against the real local service (its answer library on this test project's backend)
 * over loopback HTTP: two past questionnaires disagree, the analyst settles the question once, undoes
 * and settles again, edits and approves an entry, adds one by hand; a read-only key is refused in the
 * service's words.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWorkbook } from '../../../src/xlsx/create';
import { client, files, startService, waitForFile, type Service } from '../../service/helpers';
import { cleanup, renderApp } from '../harness';

let service: Service;
let admin: string;
let reader: string;

/** A completed questionnaire: ID | Question | Answer | Additional Information. */
function answeredSheet(rows: [id: string, question: string, answer: string, comment: string][]): Uint8Array {
  const cells: Record<string, string> = { A1: 'ID', B1: 'Question', C1: 'Answer', D1: 'Additional Information' };
  rows.forEach(([id, q, a, c], i) => Object.assign(cells, { [`A${i + 2}`]: id, [`B${i + 2}`]: q, [`C${i + 2}`]: a, [`D${i + 2}`]: c }));
  return createWorkbook({ sheets: [{ name: 'Answers', cells }] });
}

async function upload(name: string, rows: Parameters<typeof answeredSheet>[0]): Promise<void> {
  const c = client(service, admin);
  const up = await c.post('/api/v2/repository/files/', files([name, answeredSheet(rows)]));
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  expect((await waitForFile(c, up.body.file_ids[0])).body.status).toBe('ready');
}

beforeAll(async () => {
  service = await startService();
  admin = await service.key({ org: 'acme', user: 'alice', role: 'admin' });
  reader = await service.key({ org: 'acme', user: 'ro', role: 'admin', readOnly: true });
  await upload('alpha.xlsx', [
    ['PT-01', 'Do you perform annual penetration tests?', 'No', 'Only scans.'],
    ['EN-01', 'Is customer data encrypted at rest?', 'Yes', 'AES-256.'],
  ]);
  await upload('beta.xlsx', [['PT-01', 'Do you perform annual penetration tests?', 'Yes', 'Yearly by an outside firm.']]);
}, 120_000);
afterAll(() => service.destroy());
afterEach(cleanup);

const origin = () => service.base.replace(/\/$/, '');

async function openAnswers(key: string) {
  renderApp({ baseUrl: origin(), apiKey: key, initialTab: 'library' });
  fireEvent.click(await screen.findByRole('button', { name: 'Answers' }, { timeout: 10_000 }));
  return screen.findByRole('listbox', { name: 'Answers' }, { timeout: 10_000 });
}

describe('Answers view on the real service', () => {
  it('a read-only key sees the library, and a settlement it tries is refused in the service words', async () => {
    const list = await openAnswers(reader);
    await within(list).findByText('Is customer data encrypted at rest?');
    await screen.findByText('Review age: 12 months', {}, { timeout: 10_000 }); // the organisation's default
    fireEvent.change(screen.getByLabelText('Filter answers'), { target: { value: 'conflicts' } });
    const group = await screen.findByRole('group', { name: 'Do you perform annual penetration tests?' }, { timeout: 10_000 });
    fireEvent.click(within(group).getAllByRole('button', { name: 'Use this answer' })[0]!);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/read-only/i);
    expect(within(group).getAllByRole('button', { name: 'Use this answer' })).toHaveLength(2);
  });

  it('settles the conflict once, undoes it, settles it again; edits and approves an entry; adds one by hand', async () => {
    const list = await openAnswers(admin);
    await waitFor(() => expect(within(list).getAllByText('Conflict')).toHaveLength(2), { timeout: 10_000 });
    fireEvent.change(screen.getByLabelText('Filter answers'), { target: { value: 'conflicts' } });
    const group = await screen.findByRole('group', { name: 'Do you perform annual penetration tests?' }, { timeout: 10_000 });
    const yes = within(group).getByText('Yes').closest('div.qf-card') as HTMLElement;
    expect(yes.textContent).toContain('beta.xlsx');
    fireEvent.click(within(yes).getByRole('button', { name: 'Use this answer' }));
    await screen.findByText(/^Settled "Do you perform annual penetration tests\?"/, {}, { timeout: 10_000 });
    expect(within(yes).getByText('Chosen')).toBeTruthy();
    fireEvent.click(within(group).getByRole('button', { name: 'Undo' }));
    await screen.findByText(/^Undone:/, {}, { timeout: 10_000 });
    await waitFor(() => expect(within(group).getAllByRole('button', { name: 'Use this answer' })).toHaveLength(2));
    fireEvent.click(within(within(group).getByText('Yes').closest('div.qf-card') as HTMLElement).getByRole('button', { name: 'Use this answer' }));
    await screen.findByText(/^Settled "Do you perform/, {}, { timeout: 10_000 });

    // The list no longer flags it; the chosen entry says so.
    fireEvent.change(screen.getByLabelText('Filter answers'), { target: { value: '' } });
    const all = await screen.findByRole('listbox', { name: 'Answers' });
    await waitFor(() => expect(within(all).queryAllByText('Conflict')).toHaveLength(0), { timeout: 10_000 });

    // Edit the encryption answer: a new version, the old kept; then approve it.
    fireEvent.click(await within(all).findByText('Is customer data encrypted at rest?'));
    const entry = await screen.findByRole('region', { name: 'Answer library entry' });
    await within(entry).findByRole('heading', { name: /Is customer data encrypted at rest\?/ }, { timeout: 10_000 });
    expect(entry.textContent).toMatch(/Sourcealpha\.xlsx/);
    fireEvent.click(within(entry).getByRole('button', { name: 'Edit' }));
    const form = within(entry).getByRole('form', { name: 'Edit answer' });
    const comment = within(form)
      .getAllByRole('textbox')
      .find((t) => (t as HTMLTextAreaElement).value === 'AES-256.') as HTMLTextAreaElement;
    fireEvent.input(comment, { target: { value: 'AES-256, keys in a managed KMS.' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save as a new version' }));
    await within(entry).findByText('Saved as version 2; the earlier version is kept.', {}, { timeout: 10_000 });
    fireEvent.click(within(entry).getByRole('button', { name: 'Approve' }));
    await within(entry).findByText(/^Approved by alice: fills use it with high trust/, {}, { timeout: 10_000 });
    expect(entry.textContent).toMatch(/ApprovalApproved by alice on \d{4}-\d\d-\d\d/);
    fireEvent.click(within(entry).getByRole('button', { name: 'Back to the list' }));

    // Add one by hand: it opens, said to come from no file.
    fireEvent.click(await screen.findByText('Add an answer by hand'));
    const add = screen.getByRole('form', { name: 'Add an answer' });
    fireEvent.input(within(add).getByLabelText('Question'), { target: { value: 'Do you run a bug bounty programme?' } });
    fireEvent.input(within(add).getByLabelText('Answer'), { target: { value: 'Yes' } });
    fireEvent.click(within(add).getByRole('button', { name: 'Add to the library' }));
    const added = await screen.findByRole('region', { name: 'Answer library entry' }, { timeout: 10_000 });
    await within(added).findByRole('heading', { name: 'Do you run a bug bounty programme?' });
    expect(added.textContent).toContain('SourceAdded by hand');
  });
});
