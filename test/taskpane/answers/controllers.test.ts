/** The Answers view's controllers without any DOM: the real client over loopback HTTP to the FakeService's answer library. */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { LibraryClient } from '../../../src/api/library-client';
import { createAddEntry } from '../../../src/taskpane/answers/add';
import { createConflicts } from '../../../src/taskpane/answers/conflicts';
import { createEntry } from '../../../src/taskpane/answers/entry';
import { createEntryList, entryQuery } from '../../../src/taskpane/answers/list';
import { realClient } from '../client';
import { FakeLibrary, libraryEntry } from '../fake-library';
import { FakeService } from '../fake-service';

let fake: FakeService;
beforeAll(async () => (fake = await FakeService.start()));
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.clearFailures();
  fake.extensions = ['answers.library'];
  fake.library = new FakeLibrary('Alice');
  fake.library.entries = Array.from({ length: 23 }, (_, i) => libraryEntry(i + 1, `Question ${i + 1}?`, i % 2 ? 'Yes' : 'No'));
});

const api = () => new LibraryClient(realClient({ baseUrl: fake.origin, apiKey: 'k' }).extensionTransport);
const until = (check: () => boolean) => vi.waitFor(() => expect(check()).toBe(true), { timeout: 5000, interval: 5 });

describe('answer list', () => {
  it('moves the cursor within a page and on across pages; a new filter starts at the top', async () => {
    const list = createEntryList(api(), { searchDelayMs: 5 });
    list.load();
    await until(() => list.state.list?.results.length === 20);
    list.move(-1); // already at the top of page 1: nowhere to go
    expect([list.state.page, list.state.cursor]).toEqual([1, 0]);
    for (let i = 0; i < 19; i++) list.move(1);
    expect(list.current()?.id).toBe(20);
    list.move(1); // past the end: the next page, its first entry
    await until(() => list.state.page === 2 && list.state.list?.results.length === 3);
    expect(list.current()?.id).toBe(21);
    list.move(-1); // before its start: the previous page, its last entry
    await until(() => list.state.page === 1 && list.state.list?.results.length === 20);
    expect(list.current()?.id).toBe(20);
    list.setSearch('Question 7?');
    expect([list.state.page, list.state.cursor]).toEqual([1, 0]);
    await until(() => list.state.list?.count === 1);
    expect(entryQuery({ q: ' x ', filter: 'review_due', offeringId: 3, fileId: null, page: 2 })).toEqual({
      page: 2,
      page_size: 20,
      q: 'x',
      filter: 'review_due',
      offering_id: 3,
    });
    list.dispose();
  });
});

describe('entry, conflicts and add', () => {
  it('edits as a new version and tells the list; a refused action keeps the draft and the service sentence', async () => {
    const changed: number[] = [];
    const entry = createEntry(api(), (d) => changed.push(d.version));
    await entry.open(2);
    entry.startEdit();
    entry.setSlot(0, 'Yes, always.');
    fake.fail('PUT', /answers\/library\/2\/$/, { status: 403, json: { error: 'members cannot change the answer library' } });
    expect(await entry.saveEdit()).toBe(false);
    expect(String((entry.state.actionError as Error).message)).toMatch(/members cannot change the answer library/);
    expect(entry.state.draft?.[0]?.content).toBe('Yes, always.');
    expect(await entry.saveEdit()).toBe(true);
    expect([entry.state.detail?.version, entry.state.draft, changed]).toEqual([2, null, [2]]);
    entry.dispose();
  });

  it('settles a group and undoes it, in place', async () => {
    fake.library.entries = [libraryEntry(1, 'Pen tests?', 'No'), libraryEntry(2, 'Pen tests?', 'Yes')];
    let changes = 0;
    const c = createConflicts(api(), () => changes++);
    await c.load();
    const group = c.state.groups!.results[0]!;
    await c.settle(group, 2);
    expect(c.state.groups!.results[0]!.canonical_id).toBe(2);
    await c.undo(c.state.groups!.results[0]!);
    expect([c.state.groups!.results[0]!.canonical_id, changes]).toEqual([null, 2]);
    c.dispose();
  });

  it('adds an entry with a comment slot only when one is written, then starts afresh', async () => {
    const add = createAddEntry(api());
    add.set({ question: 'Bug bounty?', answer: ' Yes ' });
    expect(await add.submit()).toBe(true);
    expect(JSON.parse(fake.requestsTo('POST', /answers\/library\/$/)[0]!.body)).toEqual({
      question: 'Bug bounty?',
      slots: [{ slot_key: 'answer', header: 'Answer', content: 'Yes' }],
    });
    expect([add.state.question, add.state.added?.question]).toEqual(['', 'Bug bounty?']);
    add.dispose();
  });
});

describe('words', () => {
  it("names an entry's source once: file, sheet, cell", async () => {
    const { sourceText } = await import('../../../src/taskpane/answers/words');
    expect(sourceText({ source: { file_id: 1, file_name: 'a.xlsx', tab_name: 'Answers', location: 'Answers!B2' } })).toBe('a.xlsx · Answers · B2');
    expect(sourceText({ source: { file_id: 1, file_name: 'a.xlsx', tab_name: 'Security', location: 'row 12' } })).toBe('a.xlsx · Security · row 12');
    expect(sourceText({ source: null })).toBe('Added by hand');
  });
});
