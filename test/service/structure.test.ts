// needs_filling (issue: "true when an unblocked slot is empty"), independent of any workbook.
import { describe, expect, it } from 'vitest';
import { needsFilling } from '../../src/service/domain/structure';

const slot = (role: string, value: string | null, is_blocked = false) => ({ role, header: role, coordinate: 'C2', value, is_blocked });

describe('needs_filling', () => {
  it('is true while any writable slot is empty, even when another is answered', () => {
    expect(needsFilling([slot('answer', 'No'), slot('comment', null)])).toBe(true);
    expect(needsFilling([slot('answer', null), slot('comment', '   ')])).toBe(true);
  });

  it('is false when every writable slot holds a value, whatever blocked slots hold', () => {
    expect(needsFilling([slot('answer', 'No'), slot('comment', 'Never.'), slot('guidance', null, true)])).toBe(false);
  });

  it('is false when every slot is blocked: there is nothing we may write', () => {
    expect(needsFilling([slot('answer', null, true)])).toBe(false);
    expect(needsFilling([])).toBe(false);
  });
});
