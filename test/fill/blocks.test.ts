import { describe, expect, it } from 'vitest';
import { groupIntoBlocks, halves } from '../../src/fill';

const cells = (...addresses: string[]) => addresses.map((address) => ({ address }));

describe('groupIntoBlocks', () => {
  it('joins a column run and side-by-side runs with the same rows into one rectangle', () => {
    const blocks = groupIntoBlocks(cells('C3', 'C4', 'C5', 'D3', 'D4', 'D5'));
    expect(blocks.map((b) => b.address)).toEqual(['C3:D5']);
    expect(blocks[0]!.cells.map((row) => row.map((c) => c.address))).toEqual([
      ['C3', 'D3'],
      ['C4', 'D4'],
      ['C5', 'D5'],
    ]);
  });

  it('never covers a cell that was not asked for', () => {
    const input = cells('C3', 'C4', 'C6', 'D3', 'D4', 'F3');
    const blocks = groupIntoBlocks(input);
    const covered = blocks.flatMap((b) => b.cells.flat().map((c) => c.address)).sort();
    expect(covered).toEqual(input.map((c) => c.address).sort());
    for (const b of blocks) expect(b.cells.length * b.cells[0]!.length).toBe(b.rowCount * b.columnCount);
    expect(blocks.map((b) => b.address)).toEqual(['C3:D4', 'C6', 'F3']);
  });

  it('keeps the number of blocks small for a long answer column', () => {
    const many = Array.from({ length: 5000 }, (_, i) => ({ address: `C${i + 3}` }));
    expect(groupIntoBlocks(many).map((b) => b.address)).toEqual(['C3:C5002']);
  });

  it('rejects duplicates and non-cells clearly', () => {
    expect(() => groupIntoBlocks(cells('C3', 'C3'))).toThrow(/C3 is listed twice/);
    expect(() => groupIntoBlocks(cells('C3:D4'))).toThrow(/not a cell address/);
  });

  it('halves a block by rows, then a single row by columns, and stops at one cell', () => {
    const [tall] = groupIntoBlocks(Array.from({ length: 5 }, (_, i) => ({ address: `B${i + 1}` })));
    const [top, bottom] = halves(tall!)!;
    expect([top.address, bottom.address]).toEqual(['B1:B3', 'B4:B5']);
    expect(bottom.cells.flat().map((c) => c.address)).toEqual(['B4', 'B5']);
    const [row] = groupIntoBlocks(['C2', 'D2', 'E2'].map((address) => ({ address })));
    const [left, right] = halves(row!)!;
    expect([left.address, right.address, right.left, right.columnCount]).toEqual(['C2:D2', 'E2', 5, 1]);
    expect(right.cells).toEqual([[{ address: 'E2' }]]);
    expect(halves(groupIntoBlocks([{ address: 'A1' }])[0]!)).toBeNull();
  });
});
