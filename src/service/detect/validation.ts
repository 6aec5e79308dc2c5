/**
 * Turns a list validation's formula1 into its allowed values: an inline list (`"Yes,No,NA"`), a range on
 * this or another (possibly hidden) sheet (`Lists!$A$1:$A$3`), or a defined name (`YesNo`), resolved
 * through workbook- and sheet-scoped names. Anything computed (INDIRECT, OFFSET, #REF!) stays unresolved.
 */
import { inRange, parseRange, type Range } from '../../xlsx/ranges';
import { getCell, type SheetGrid, type Validation } from './grid';
import type { Workbook } from './workbook';

const MAX_VALUES = 500;
const MAX_CELLS = 20_000;

export interface ValidationLookup {
  /** The list validation covering a cell, if any (later validations win, as in Excel). */
  at(row: number, col: number): Validation | undefined;
  /** Allowed values of a list validation, or null when they cannot be worked out from the file. */
  allowed(v: Validation): string[] | null;
}

export function validationLookup(grid: SheetGrid, workbook: Workbook | null, sheetIndex: number): ValidationLookup {
  const lists = grid.validations.filter((v) => v.type === 'list');
  const memo = new Map<Validation, string[] | null>();
  return {
    at(row, col) {
      for (let i = lists.length - 1; i >= 0; i--) {
        if (lists[i].ranges.some((r) => inRange(r, row, col))) return lists[i];
      }
      return undefined;
    },
    allowed(v) {
      if (!memo.has(v)) memo.set(v, resolveList(v.formula1, grid, workbook, sheetIndex, 0));
      return memo.get(v) ?? null;
    },
  };
}

export function parseInlineList(formula: string): string[] {
  const body = formula.slice(1, formula.endsWith('"') ? -1 : undefined).replace(/""/g, '"');
  return dedupe(body.split(',').map((s) => s.trim()));
}

function dedupe(values: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const v of values) {
    if (v === '' || seen.has(v)) continue;
    seen.add(v);
    out.push(v);
    if (out.length >= MAX_VALUES) break;
  }
  return out;
}

function resolveList(formula: string, grid: SheetGrid, workbook: Workbook | null, sheetIndex: number, depth: number): string[] | null {
  let f = formula.trim().replace(/^=/, '');
  if (f.startsWith('"')) return parseInlineList(f);
  if (depth > 4 || f === '' || /#REF!/i.test(f)) return null;
  f = f.replace(/^\((.*)\)$/, '$1');
  const qualified = /^(?:'((?:[^']|'')+)'|([^'!()+\-*/,=<>&^ ]+))!(.+)$/.exec(f);
  if (qualified) {
    if (!workbook) return null;
    const sheetName = (qualified[1] ?? qualified[2]).replace(/''/g, "'");
    const info = workbook.sheetByName(sheetName);
    const range = parseRange(qualified[3]);
    if (!info || !range) return null;
    return readRange(workbook.grid(info), range);
  }
  const local = parseRange(f);
  if (local && /^\$?[A-Za-z]{1,3}\$?\d/.test(f)) return readRange(grid, local);
  if (!workbook || !/^[A-Za-z_\\][\w.\\]*$/.test(f)) return null;
  const lower = f.toLowerCase();
  const candidates = workbook.definedNames.filter((d) => d.name.toLowerCase() === lower);
  const name = candidates.find((d) => d.localSheetId === sheetIndex && !/#REF!/i.test(d.formula)) ?? candidates.find((d) => d.localSheetId === null);
  if (!name) return null;
  return resolveList(name.formula, grid, workbook, sheetIndex, depth + 1);
}

function readRange(grid: SheetGrid, range: Range): string[] {
  const bottom = Math.min(range.bottom, grid.maxRow);
  const right = Math.min(range.right, grid.maxCol);
  const values: string[] = [];
  let seen = 0;
  for (let r = range.top; r <= bottom; r++) {
    for (let c = range.left; c <= right; c++) {
      if (++seen > MAX_CELLS) return dedupe(values);
      const v = getCell(grid, r, c)?.value;
      if (v) values.push(v.trim());
    }
  }
  return dedupe(values);
}
