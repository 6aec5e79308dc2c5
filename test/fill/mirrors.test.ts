import { describe, expect, it } from 'vitest';
import { foldMirrors, mirrorSource, reviewItemOf } from '../../src/fill/mirrors';
import { parseCellRef } from '../../src/xlsx/a1';
import { question } from './helpers';

const slot = (coordinate: string, extra: Record<string, unknown> = {}) => ({ role: 'answer', header: 'Answer', coordinate, is_blocked: false, ...extra });
const mirrorSlot = (coordinate: string, source: string) => slot(coordinate, { is_blocked: true, mirror_of: source });

describe('foldMirrors: one review item per question', () => {
  const original = question({ id: 1, tab_name: 'START HERE', answer_slots: [slot('C19'), { ...slot('D19'), role: 'comment', header: 'Notes' }] });
  const own = question({ id: 2, tab_name: 'Organization', answer_slots: [slot('C4')] });
  const mirror = question({
    id: 3,
    tab_name: 'Organization',
    answer_slots: [mirrorSlot('C2', "'START HERE'!C19"), { ...mirrorSlot('D2', "'START HERE'!D19"), role: 'comment' }],
  });
  const second = question({ id: 4, tab_name: 'Data Privacy', answer_slots: [mirrorSlot('C7', "'START HERE'!$C$19")] });

  it('folds every mirror into the question answered where it reads, and says where', () => {
    const fold = foldMirrors([original, own, mirror, second]);
    expect(fold.items.map((q) => q.id)).toEqual([1, 2]);
    expect(fold.originalOf.get(3)).toBe(1);
    expect(fold.originalOf.get(4)).toBe(1);
    expect(fold.mirroredAt.get(1)).toEqual([
      { tab: 'Organization', address: 'C2' },
      { tab: 'Data Privacy', address: 'C7' },
    ]);
    expect(fold.answeredAt.get(3)).toEqual({ tab: 'START HERE', address: 'C19' });
    expect(reviewItemOf(fold, [original, own, mirror, second], mirror).id).toBe(1);
    expect(reviewItemOf(fold, [original, own, mirror, second], own).id).toBe(2);
  });

  it('follows a mirror of a mirror to the answer cell', () => {
    const chained = question({ id: 5, tab_name: 'Summary', answer_slots: [mirrorSlot('B2', 'Organization!C2')] });
    const fold = foldMirrors([original, mirror, chained]);
    expect(fold.items.map((q) => q.id)).toEqual([1]);
    expect(fold.answeredAt.get(5)).toEqual({ tab: 'START HERE', address: 'C19' });
    expect(fold.originalOf.get(5)).toBe(1);
  });

  it('keeps a mirror whose source is no question, or that has a cell of its own to fill, as an item that says where it is answered', () => {
    const orphan = question({ id: 6, tab_name: 'Organization', answer_slots: [mirrorSlot('C3', "'Cover'!B2")] });
    const withNotes = question({ id: 7, tab_name: 'Organization', answer_slots: [mirrorSlot('C5', "'START HERE'!C19"), { ...slot('D5'), role: 'comment' }] });
    const fold = foldMirrors([original, orphan, withNotes]);
    expect(fold.items.map((q) => q.id)).toEqual([1, 6, 7]);
    expect(fold.answeredAt.get(6)).toEqual({ tab: 'Cover', address: 'B2' });
    expect(fold.answeredAt.get(7)).toEqual({ tab: 'START HERE', address: 'C19' });
  });

  it('ends a loop of formulas and leaves questions without mirrors as they are', () => {
    const a = question({ id: 8, tab_name: 'A', answer_slots: [mirrorSlot('C2', 'B!C2')] });
    const b = question({ id: 9, tab_name: 'B', answer_slots: [mirrorSlot('C2', 'A!C2')] });
    const fold = foldMirrors([a, b, own]);
    expect(fold.items.map((q) => q.id)).toEqual([8, 9, 2]);
    expect(foldMirrors([own]).items).toEqual([own]);
  });

  it('reads a writable formula-free answer as no mirror, and cell names with quotes', () => {
    expect(mirrorSource(own)).toBeNull();
    expect(mirrorSource(question({ id: 10, answer_slots: [slot('C2', { mirror_of: 'X!C1' })] }))).toBeNull();
    expect(parseCellRef("'Vendor''s Tab'!$B$4", 'x')).toEqual({ tab: "Vendor's Tab", address: 'B4' });
    expect(parseCellRef('B4', 'Here')).toEqual({ tab: 'Here', address: 'B4' });
    expect(parseCellRef('Here!B4:C5', 'x')).toBeNull();
  });
});
