/** The Library state's pure transitions: picking files, choosing offerings, a deleted file leaving the list. */
import { describe, expect, it } from 'vitest';
import { addPicked, toggleOffering, withoutFiles } from '../../../src/taskpane/library/state';
import { repositoryFile } from '../fake-service';

const file = (name: string, size = 4) => new File([new Uint8Array(size)], name);

describe('Library state', () => {
  it('picks a file once by name and size, keeping the order picked', () => {
    const a = file('a.pdf');
    const picked = addPicked([a], [file('b.pdf'), file('a.pdf'), file('a.pdf', 9)]);
    expect(picked.map((f) => `${f.name}:${f.size}`)).toEqual(['a.pdf:4', 'b.pdf:4', 'a.pdf:9']);
    expect(picked[0]).toBe(a);
  });

  it('turns an offering on (last) and off', () => {
    expect(toggleOffering([3, 7], 3, true)).toEqual([7, 3]);
    expect(toggleOffering([3, 7], 3, false)).toEqual([7]);
    expect(toggleOffering([], 5, false)).toEqual([]);
  });

  it('drops deleted files from the list and its count; no list stays none', () => {
    const list = { count: 25, results: [repositoryFile(1, 'a.pdf'), repositoryFile(2, 'b.pdf')], hasNext: true };
    expect(withoutFiles(list, [2, 99])).toEqual({ count: 24, results: [list.results[0]], hasNext: true });
    expect(withoutFiles(null, [1])).toBeNull();
  });
});
