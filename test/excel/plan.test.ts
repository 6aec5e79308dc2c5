/**
 * Planning on Office.js: the cells are read once per plan, and the overwrite confirmation's two plans
 * (keep, overwrite) and what they would replace come from that one read, as data.
 */
import { describe, expect, it } from 'vitest';
import { createExcelWorkbook, memoryStorage, type ApplyResult, type WorkbookAdapter } from '../../src/excel';
import { createFillSession } from '../../src/fill/session';
import { manyQuestions, readyApi, setupHost } from './helpers';

/** The adapter with every call to its reading methods counted. */
function counted(workbook: WorkbookAdapter) {
  const calls = { plan: 0, planOverwrite: 0, readValues: 0 };
  const wrapped: WorkbookAdapter = {
    ...workbook,
    plan: (q, o) => (calls.plan++, workbook.plan(q, o)),
    planOverwrite: (q, o) => (calls.planOverwrite++, workbook.planOverwrite!(q, o)),
    readValues: (refs) => (calls.readValues++, workbook.readValues!(refs)),
  };
  return { calls, wrapped };
}

describe('plans from one read', () => {
  it('plans keep and overwrite from the syncs of a single plan, and names what is replaced without reading it again', async () => {
    const TABS = ['T1', 'T2'];
    const host = setupHost(TABS);
    host.fileBytes = new Uint8Array(64); // what the session uploads; the scripted service does not read it
    const questions = manyQuestions(40, TABS);
    const vendor = `The vendor wrote "no" here ${'and a long explanation '.repeat(4)}`;
    host.setCell('T1', 'C2', { value: vendor });
    host.setCell('T2', 'C3', { value: 'Answer number 3' }); // what the fill would write anyway: nothing lost
    const workbook = createExcelWorkbook({ storage: memoryStorage() });

    host.resetStats();
    const single = await workbook.plan(questions, {});
    const oneRead = host.stats.syncs;
    expect(single.skipped.filter((s) => s.reason === 'occupied')).toHaveLength(2);

    const { calls, wrapped } = counted(workbook);
    const session = createFillSession({ api: readyApi(questions), workbook: wrapped, confirmOverwrite: true }, { overwrite: true });
    host.resetStats();
    await session.fill();
    expect(session.state.outcome).toBeNull();
    expect(session.state.phase).toBe('confirm-overwrite');
    expect(calls).toEqual({ plan: 0, planOverwrite: 1, readValues: 0 });
    expect(host.stats.syncs).toBe(oneRead);
    // Whole, as it is in the cell: from the plan's data, not from its (shortened) sentence.
    expect(session.state.replacements).toEqual([
      { tab: 'T1', address: 'C2', questionId: questions[0]!.id, originalId: questions[0]!.original_id, current: vendor, next: 'Answer number 0' },
    ]);

    await session.confirmOverwrite('replace');
    expect(session.state.outcome).toEqual({ kind: 'written' });
    expect(host.getCell('T1', 'C2').value).toBe('Answer number 0');
    // The write reads the cells once more for its Undo snapshot, inside its own syncs: nothing else.
    expect(host.stats.syncs).toBe(oneRead + (session.state.report!.result as ApplyResult).syncs);
  });

  it('both plans take the same syncs for 10 and 2,000 answers (merged areas listed too)', async () => {
    const syncsFor = async (count: number) => {
      const host = setupHost(['T1'], { excelApiVersion: '1.13' });
      const workbook = createExcelWorkbook({ storage: memoryStorage() });
      host.resetStats();
      await workbook.planOverwrite!(manyQuestions(count, ['T1']), {});
      return host.stats.syncs;
    };
    expect(await syncsFor(2000)).toBe(await syncsFor(10));
  });
});
