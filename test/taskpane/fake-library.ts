/**
 * The answer library (extension "answers.library") for the FakeService: in memory, answers shaped as
 * src/api/library.ts says, the rules of the contract kept simply (conflicts are live entries of one
 * question_key that disagree with none chosen; settling retires the others; undo brings them back).
 */
import type { LibraryConflict, LibraryEntryDetail, LibrarySlot } from '../../src/api/library';

const TODAY = '2026-01-15';

export function libraryEntry(id: number, question: string, answer: string, patch: Partial<LibraryEntryDetail> = {}): LibraryEntryDetail {
  const slots: LibrarySlot[] = [{ slot_key: 'answer', header: 'Answer', content: answer }];
  return {
    id,
    question,
    original_id: null,
    answer,
    slots,
    source: { file_id: 1, file_name: 'hecvat-2024.xlsx', tab_name: 'Security', location: `row ${id + 1}` },
    offering_ids: [],
    as_of: '2025-06-01',
    status: 'active',
    retired_reason: null,
    approved_by: null,
    approved_at: null,
    review_due: false,
    review_reason: null,
    question_key: question.toLowerCase(),
    conflict: false,
    version: 1,
    updated_by: null,
    updated_at: null,
    owner: null,
    review_months: null,
    versions: [{ version: 1, question, slots, by: null, at: null }],
    history: [],
    ...patch,
  };
}

type Reply = [number, unknown];

export class FakeLibrary {
  entries: LibraryEntryDetail[] = [];
  reviewAgeMonths = 12;
  /** The organisation's usernames: an owner must be one of them. */
  users = ['alice', 'bob'];
  private nextId = 1000;

  constructor(private readonly who = 'Alice') {}

  /** Marks conflicts as the service would: live entries of one question that disagree, none chosen. */
  private refresh(): void {
    for (const e of this.entries) {
      const group = this.entries.filter((x) => x.question_key === e.question_key && x.status !== 'retired');
      e.conflict = e.status !== 'retired' && !group.some((x) => x.status === 'canonical') && new Set(group.map((x) => x.answer)).size > 1;
    }
  }

  private event(e: LibraryEntryDetail, action: LibraryEntryDetail['history'][number]['action'], detail: string | null = null): void {
    e.history = [...e.history, { action, by: this.who, at: `${TODAY}T10:00:00Z`, detail }];
    e.updated_by = this.who;
    e.updated_at = `${TODAY}T10:00:00Z`;
  }

  /** Entries chosen for one offering: `question_key|offering_id` → entry id. */
  settlements = new Map<string, number>();

  private group(key: string, offering: number | null = null): LibraryConflict {
    const entries = this.entries.filter(
      (x) => x.question_key === key && (offering === null || x.offering_ids.length === 0 || x.offering_ids.includes(offering)),
    );
    const settlements = [...this.settlements]
      .filter(([k]) => k.startsWith(`${key}|`))
      .map(([k, entry_id]) => ({ offering_id: Number(k.split('|').at(-1)), entry_id, by: this.who, at: `${TODAY}T10:00:00Z` }));
    return {
      question_key: key,
      question: entries[0]!.question,
      entries,
      canonical_id: entries.find((x) => x.status === 'canonical')?.id ?? null,
      settlements,
      offering_id: offering,
    };
  }

  route(method: string, p: string, query: URLSearchParams, body: string): Reply | null {
    if (!p.startsWith('/answers/library/')) return null;
    this.refresh();
    const json = () => JSON.parse(body || '{}') as Record<string, unknown>;
    if (method === 'GET' && p === '/answers/library/') return [200, this.list(query)];
    if (p === '/answers/library/settings/') {
      if (method === 'PUT') this.reviewAgeMonths = Number(json().review_age_months);
      return [200, { review_age_months: this.reviewAgeMonths }];
    }
    if (method === 'POST' && p === '/answers/library/') {
      const b = json() as { question?: string; slots?: LibrarySlot[]; offering_ids?: number[] };
      if (!b.question?.trim()) return [400, { error: 'question must not be empty' }];
      const slots = b.slots ?? [];
      const e = libraryEntry(++this.nextId, b.question.trim(), slots[0]?.content ?? '', {
        slots,
        source: null,
        as_of: TODAY,
        offering_ids: b.offering_ids ?? [],
      });
      this.event(e, 'added');
      this.entries.push(e);
      this.refresh();
      return [201, e];
    }
    if (method === 'GET' && p === '/answers/library/conflicts/') {
      const keys = [...new Set(this.entries.map((e) => e.question_key))].filter((k) => {
        const g = this.entries.filter((e) => e.question_key === k);
        return g.length > 1 && (g.some((e) => e.conflict) || g.some((e) => e.status === 'canonical'));
      });
      const offering = query.get('offering_id') ? Number(query.get('offering_id')) : null;
      return [
        200,
        page(
          keys.map((k) => this.group(k, offering)),
          query,
        ),
      ];
    }
    const settle = p.match(/^\/answers\/library\/conflicts\/(settle|undo)\/$/);
    if (method === 'POST' && settle) {
      const chosen = this.entries.find((e) => e.id === Number(json().entry_id));
      if (!chosen) return [404, { error: `library entry ${String(json().entry_id)} not found` }];
      const offering = json().offering_id as number | undefined;
      if (offering !== undefined) {
        // For one offering: recorded apart, nothing retired.
        const key = `${chosen.question_key}|${offering}`;
        if (settle[1] === 'settle') this.settlements.set(key, chosen.id), this.event(chosen, 'settled', `chosen for offering ${offering}`);
        else this.settlements.delete(key);
        return [200, this.group(chosen.question_key, offering)];
      }
      for (const e of this.entries.filter((x) => x.question_key === chosen.question_key)) {
        if (settle[1] === 'settle') {
          if (e === chosen) (e.status = 'canonical'), this.event(e, 'settled', 'chosen for this question');
          else if (e.status !== 'retired')
            (e.status = 'retired'), (e.retired_reason = `settled: entry ${chosen.id} chosen for this question`), this.event(e, 'retired', e.retired_reason);
        } else if (e.status === 'canonical' || e.retired_reason?.startsWith('settled')) {
          e.status = 'active';
          e.retired_reason = null;
          this.event(e, 'unsettled');
        }
      }
      this.refresh();
      return [200, this.group(chosen.question_key)];
    }
    if (method === 'PUT' && p === '/answers/library/sections/review/') {
      const b = json() as { file_id: number; tab_name: string; section?: string | null; owner?: string | null };
      const section = this.entries.filter(
        (x) => x.status !== 'retired' && x.source?.file_id === b.file_id && x.source.tab_name === b.tab_name && (b.section == null || x.section === b.section),
      );
      if (section.length === 0) return [404, { error: `no live entry of section "${b.section}" of sheet "${b.tab_name}" in file ${b.file_id}` }];
      const changing = section.filter((x) => b.owner !== undefined && x.owner !== b.owner);
      for (const x of changing) {
        this.event(x, 'review_changed', `owner: ${x.owner ?? 'nobody'} → ${b.owner ?? 'nobody'}`);
        x.owner = b.owner ?? null;
      }
      return [200, { updated: changing.length, entries: section.length }];
    }
    const m = p.match(/^\/answers\/library\/(\d+)\/(approve\/|retire\/|restore\/|review\/)?$/);
    const e = m ? this.entries.find((x) => x.id === Number(m[1])) : undefined;
    if (!m) return null;
    if (!e) return [404, { error: `library entry ${m[1]} not found` }];
    if (method === 'GET' && !m[2]) return [200, e];
    if (method === 'PUT' && !m[2]) {
      const b = json() as { slots?: LibrarySlot[] };
      if (!b.slots?.some((s) => s.content.trim())) return [400, { error: 'at least one slot must have content' }];
      e.slots = b.slots;
      e.answer = b.slots[0]!.content;
      e.version += 1;
      e.versions = [...e.versions, { version: e.version, question: e.question, slots: b.slots, by: this.who, at: `${TODAY}T10:00:00Z` }];
      this.event(e, 'edited', `version ${e.version}`);
    } else if (method === 'POST' && m[2] === 'approve/') {
      e.approved_by = this.who;
      e.approved_at = `${TODAY}T10:00:00Z`;
      e.review_due = false;
      e.review_reason = null;
      this.event(e, 'approved');
    } else if (method === 'PUT' && m[2] === 'review/') {
      const b = json() as { owner?: string | null; review_months?: number | null };
      if (b.owner && !this.users.includes(b.owner)) return [400, { error: `owner: no user "${b.owner}" in this organisation` }];
      const said = `owner: ${e.owner ?? 'nobody'} → ${b.owner ?? 'nobody'}`;
      if (b.owner !== undefined) e.owner = b.owner;
      if (b.review_months !== undefined) e.review_months = b.review_months;
      this.event(e, 'review_changed', said);
    } else if (method === 'POST' && m[2] === 'retire/') {
      e.status = 'retired';
      e.retired_reason = 'retired by hand';
      this.event(e, 'retired');
    } else if (method === 'POST' && m[2] === 'restore/') {
      e.status = 'active';
      e.retired_reason = null;
      this.event(e, 'restored');
    } else return null;
    this.refresh();
    return [200, e];
  }

  private list(q: URLSearchParams) {
    const text = (q.get('q') ?? '').toLowerCase();
    const filter = q.get('filter');
    const offering = q.get('offering_id');
    const file = q.get('file_id');
    const section = q.get('section');
    const found = this.entries.filter(
      (e) =>
        (section === null || e.section === section) &&
        (filter === 'retired' ? e.status === 'retired' : e.status !== 'retired') &&
        (!text || `${e.question} ${e.answer}`.toLowerCase().includes(text)) &&
        (filter !== 'conflicts' || e.conflict) &&
        (filter !== 'review_due' || e.review_due) &&
        (filter !== 'unapproved' || !e.approved_at) &&
        (filter !== 'approved' || !!e.approved_at) &&
        (filter !== 'by_hand' || e.source === null) &&
        (!offering || e.offering_ids.includes(Number(offering))) &&
        (!file || e.source?.file_id === Number(file)),
    );
    return page(
      found.map(({ versions: _v, history: _h, ...entry }) => entry),
      q,
    );
  }
}

function page<T>(all: T[], q: URLSearchParams) {
  const size = Number(q.get('page_size') ?? 50);
  const n = Number(q.get('page') ?? 1);
  const start = (n - 1) * size;
  return {
    count: all.length,
    next: start + size < all.length ? `page=${n + 1}` : null,
    previous: n > 1 ? `page=${n - 1}` : null,
    results: all.slice(start, start + size),
  };
}
