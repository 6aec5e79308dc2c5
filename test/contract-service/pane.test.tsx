// @vitest-environment happy-dom
// @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
/**
 * The task pane's fill, review and chat against the second, spec-only v2 service (real HTTP on
 * loopback, the real ApiClient, the in-memory workbook of the pane tests).
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderApp } from '../taskpane/harness';
import { MemoryWorkbook } from '../taskpane/memory-workbook';
import { CONTRACT_KEY, CONTRACT_TAB, ContractService } from './server';

let service: ContractService;
beforeAll(async () => {
  service = await ContractService.start();
});
afterAll(() => service?.close());
afterEach(() => cleanup());

const questionList = () => screen.getByRole('list', { name: 'Questions' });
const card = () => screen.getByRole('article', { name: 'Selected question' });

describe('the pane against a spec-only service', () => {
  it('fills the chosen answers by the service’s own slot roles, keeps drafts for review, and reviews them', async () => {
    const workbook = new MemoryWorkbook([CONTRACT_TAB]);
    renderApp({ baseUrl: service.origin, apiKey: CONTRACT_KEY, workbook });
    fireEvent.click(screen.getByRole('button', { name: /Fill this workbook/ }));
    await screen.findByText(/Wrote 4 cells; skipped 2 cells\./, {}, { timeout: 15_000 });
    expect(['C2', 'D2', 'C3', 'D3', 'D4', 'C5'].map((a) => workbook.value(CONTRACT_TAB, a) ?? null)).toEqual([
      'Yes',
      'All customer data is encrypted at rest with AES-256.',
      null,
      null,
      'An independent firm tests yearly; findings are fixed within 30 days.',
      'Yes',
    ]);

    // The review shows the answer the fill used (approved and newest), with its evidence by rank.
    fireEvent.click(within(questionList()).getByText(/Is customer data encrypted at rest\?/));
    await waitFor(() => expect(card().textContent).toMatch(/Is customer data encrypted at rest\?/));
    expect(card().textContent).toContain('encryption-standard.pdf');
    // Each slot with the chosen answer's value: not the older first answer ("No").
    const slotValues = () => [...card().querySelectorAll('dd')].map((dd) => dd.textContent);
    expect(slotValues()).toEqual(['Yes', 'All customer data is encrypted at rest with AES-256.']);
    // The held-back draft is there to review, with its text.
    fireEvent.click(within(questionList()).getByText(/Do you support customer-managed keys\?/));
    await waitFor(() => expect(card().textContent).toMatch(/customer-managed keys/));
    expect(slotValues()).toEqual(['No', 'Not offered today.']);
  });

  it('writes drafts too when asked', async () => {
    const workbook = new MemoryWorkbook([CONTRACT_TAB]);
    renderApp({ baseUrl: service.origin, apiKey: CONTRACT_KEY, workbook });
    fireEvent.click(screen.getByLabelText(/Also write drafts into cells/));
    fireEvent.click(screen.getByRole('button', { name: /Fill this workbook/ }));
    await screen.findByText(/Wrote 6 cells; skipped 0 cells\./, {}, { timeout: 15_000 });
    expect(workbook.value(CONTRACT_TAB, 'D3')).toBe('Not offered today.');
  });

  it('chats: an answer with sources that carry only filename, page and content', async () => {
    renderApp({ baseUrl: service.origin, apiKey: CONTRACT_KEY, initialTab: 'chat' });
    const box = screen.getByLabelText('Question') as HTMLTextAreaElement;
    fireEvent.input(box, { target: { value: 'Is data encrypted at rest?' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await screen.findByText(/customer data is encrypted at rest with AES-256/);
    await screen.findByText(/encryption-standard\.pdf/);
  });
});
