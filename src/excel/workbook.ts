/**
 * `WorkbookAdapter` over Office.js: the only place that writes into the analyst's workbook.
 * Reads run in a constant number of syncs, writes are packed into rectangular `values` writes and
 * chunks under a payload budget, and every fill first saves an Undo snapshot of the touched cells.
 */
import type { QuestionWithAnswers } from '../api/schemas';
import {
  anchorSlotsToMerges,
  groupIntoBlocks,
  halves,
  parseA1,
  parseA1Range,
  planFill,
  resolveTab,
  targetCells,
  toA1,
  toA1Range,
  type CellBlock,
  type CellWrite,
  type CellState,
  type PlanOptions,
  type WritePlan,
} from '../fill';
import { needsTextProtection } from '../fill/text-safety';
import { runBatched, type BatchOp, type CellFailure } from './batch';
import { cellTextForValues } from './cell-text';
import { detectSupport, errorMessage, officeErrorCode, type ApiFeature } from './office';
import { loadSheetNames, readCells, type CellRead } from './read-cells';
import { readOpenWorkbook, type ReadFileOptions } from './read-file';
import type { AnnotateOptions, ApplyResult, CellRef, ReadProgress, UndoResult, WorkbookAdapter } from './types';
import { defaultStorage, pack, unpack, UndoStore, type SnapshotBlock, type StorageLike, type UndoSnapshot } from './undo-store';

export interface ExcelWorkbookOptions {
  /** Where Undo snapshots live. Default: localStorage (prefixed with Office's partition key). */
  storage?: StorageLike;
  /** Use no API above this ExcelApi version even if Excel has it (e.g. '1.1' to behave like the oldest Excel). */
  excelApiVersion?: string;
  /** Request budget per sync; Excel on the web rejects requests over 5 MB. Default 4 MB. */
  payloadBudgetBytes?: number;
  /** Options for reading the open workbook file. */
  readFile?: Omit<ReadFileOptions, 'onProgress'>;
}

export const DEFAULT_PAYLOAD_BUDGET = 4 * 1024 * 1024;

/** Soft fills by trust: Excel's own Good / Neutral / Bad cell-style colours. */
export const TRUST_FILLS = { high: '#C6EFCE', medium: '#FFEB9C', low: '#FFC7CE' } as const;

/** The text of the note beside a filled cell: its top sources as `filename p.N`. */
export function sourceNoteText(write: Pick<CellWrite, 'sources' | 'trust' | 'score'>): string | null {
  if (write.sources.length === 0) return null;
  const lines = write.sources.map((s) => `${s.filename} p.${s.page_number}`);
  const trust = write.trust ? `\nTrust: ${write.trust}${write.score !== null ? ` (${Math.round(write.score)}/100)` : ''}` : '';
  return `Sources:\n${lines.join('\n')}${trust}`;
}

/** Rough request bytes of a 2D payload (what JSON serialisation of the command would weigh). */
function gridBytes(grid: unknown[][]): number {
  let n = 2;
  for (const row of grid) {
    n += 2;
    for (const v of row) n += typeof v === 'string' ? v.length * 1.1 + 3 : 8;
  }
  return Math.ceil(n);
}

const OP_OVERHEAD = 160;

function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/**
 * How a snapshot cell goes back exactly: most through `values`; text that Excel would parse
 * (`5/20/2024`, `42`, `=x` stored as text) needs care. Files written by other tools hold such text
 * without Excel's apostrophe prefix, so where formatting is allowed it is restored through a
 * temporary `@` format (text stays text, no prefix added, format put back). Formula-like text, and
 * any such text on a protected sheet, goes back with the apostrophe (cellTextForValues): safe first.
 */
function restorePlan(formula: string | number | boolean, valueType: string, numberFormat: string, canFormat: boolean): { input: string | number | boolean } | { viaTextFormat: string } {
  if (valueType === 'Empty') return { input: '' };
  if (typeof formula !== 'string' || valueType !== 'String') return { input: formula };
  if (numberFormat === '@') return { input: cellTextForValues(formula, false, true) };
  const numeric = formula.trim() !== '' && !Number.isNaN(Number(formula.trim()));
  if (!needsTextProtection(formula) && !numeric) return { input: formula };
  const formulaLike = /^[=+\-@]/.test(formula);
  if (canFormat && !formulaLike) return { viaTextFormat: formula };
  return { input: cellTextForValues(formula, true) };
}

function textViaFormatOp(tab: string, address: string, text: string, format: string): BatchOp {
  return {
    bytes: OP_OVERHEAD * 3 + text.length + format.length,
    cells: [{ tab, address }],
    queue: (context) => {
      const range = context.workbook.worksheets.getItem(tab).getRange(address);
      range.numberFormat = [['@']];
      range.values = [[text]];
      range.numberFormat = [[format]];
      range.untrack();
    },
    split: () => null,
  };
}

interface ValuesUnit {
  tab: string;
  block: CellBlock<{ address: string; input: unknown }>;
}

/** A `values` write of a block; splits in halves (rows, then columns) when too big or refused. */
function valuesOp(unit: ValuesUnit, onWritten?: (cells: number) => void): BatchOp {
  const grid = unit.block.cells.map((row) => row.map((c) => c.input));
  return {
    bytes: gridBytes(grid) + OP_OVERHEAD,
    cells: unit.block.cells.flat().map((c) => ({ tab: unit.tab, address: c.address })),
    queue: (context) => {
      const range = context.workbook.worksheets.getItem(unit.tab).getRange(unit.block.address);
      range.values = grid as Excel.Range['values'];
      range.untrack();
    },
    split: () => halves(unit.block)?.map((block) => valuesOp({ tab: unit.tab, block }, onWritten)) as [BatchOp, BatchOp] | undefined ?? null,
    after: () => onWritten?.(unit.block.rowCount * unit.block.columnCount),
  };
}

/** One fill colour (or clearing) on a block of cells. */
function fillOp(tab: string, block: CellBlock<{ address: string }>, colour: string | null): BatchOp {
  return {
    bytes: OP_OVERHEAD,
    cells: block.cells.flat().map((c) => ({ tab, address: c.address })),
    queue: (context) => {
      const range = context.workbook.worksheets.getItem(tab).getRange(block.address);
      if (colour === null) range.format.fill.clear();
      else range.format.fill.color = colour;
      range.untrack();
    },
    split: () => null,
  };
}

function numberFormatOp(tab: string, address: string, format: string): BatchOp {
  return {
    bytes: OP_OVERHEAD + format.length,
    cells: [{ tab, address }],
    queue: (context) => {
      const range = context.workbook.worksheets.getItem(tab).getRange(address);
      range.numberFormat = [[format]];
      range.untrack();
    },
    split: () => null,
  };
}

/** Groups cells by a key (a colour) into rectangular blocks per key. */
function blocksByKey<K>(cells: { address: string; key: K }[]): { key: K; block: CellBlock<{ address: string }> }[] {
  const groups = new Map<K, { address: string }[]>();
  for (const c of cells) {
    let list = groups.get(c.key);
    if (!list) groups.set(c.key, (list = []));
    list.push({ address: c.address });
  }
  return [...groups].flatMap(([key, list]) => groupIntoBlocks(list).map((block) => ({ key, block })));
}

/**
 * The areas of a `RangeAreas.address` (`Sheet1!A1:B2, Sheet1!D4:E5`). A comma inside a quoted sheet
 * name (`'Q1, 2024'!A1:B2`) is part of the name, not a separator.
 */
export function splitAreaAddresses(address: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of address) {
    if (ch === "'") quoted = !quoted; // a doubled '' inside a name toggles twice: still quoted
    if (ch === ',' && !quoted) {
      if (current.trim()) out.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

/**
 * Per tab, every non-top-left cell of the merged areas that may hold a target, mapped to its
 * area's top-left cell: one read for all tabs. Excel lists only merges whose top-left cell lies in
 * the range asked about (office-js #3611), so the range runs from A1 to the farthest target: a
 * merge holding a target starts at or above and left of it.
 */
async function mergeAnchors(
  context: Excel.RequestContext,
  targets: readonly { tab: string; addresses: readonly string[] }[],
  onSync: () => void,
): Promise<Map<string, Map<string, string>>> {
  const areas = targets.map(({ tab, addresses }) => {
    const cs = addresses.map((a) => parseA1(a)!);
    const box = toA1Range(1, 1, Math.max(...cs.map((c) => c.row)), Math.max(...cs.map((c) => c.column)));
    const merged = context.workbook.worksheets.getItem(tab).getRange(box).getMergedAreasOrNullObject();
    merged.load('address');
    return { tab, merged };
  });
  onSync();
  await context.sync();
  const anchors = new Map<string, Map<string, string>>();
  for (const { tab, merged } of areas) {
    if (merged.isNullObject) continue;
    const map = new Map<string, string>();
    for (const part of splitAreaAddresses(merged.address)) {
      const r = parseA1Range(part);
      if (!r) continue;
      for (let i = 0; i < r.rowCount; i++) {
        for (let j = 0; j < r.columnCount; j++) if (i || j) map.set(toA1(r.top + i, r.left + j), toA1(r.top, r.left));
      }
    }
    anchors.set(tab, map);
  }
  return anchors;
}

/** Sends a one-cell write; Excel's refusal becomes the reason it was not written. */
async function syncOneWrite(context: Excel.RequestContext, where: string): Promise<{ written: boolean; reason?: string }> {
  try {
    await context.sync();
    return { written: true };
  } catch (e) {
    const code = officeErrorCode(e);
    if (code === 'AccessDenied') return { written: false, reason: `${where} is locked on a protected sheet.` };
    if (code) return { written: false, reason: `Excel refused the change (${code}): ${errorMessage(e)}` };
    throw e;
  }
}

/** Sheet name and top-left cell of an address like `'My Sheet'!C5:D6`. */
function splitAddress(address: string): { sheet: string | null; cell: string | null } {
  const c = parseA1(address);
  return { sheet: c?.sheet ?? null, cell: c ? toA1(c.row, c.column) : null };
}

/** Whether an Undo snapshot already holds the cell (the fill, or an earlier correction, wrote it). */
function snapshotHolds(snapshot: UndoSnapshot, tab: string, row: number, column: number): boolean {
  return snapshot.tabs.some(
    (t) =>
      t.tab === tab &&
      t.blocks.some((b) => {
        const r = parseA1Range(b.address);
        return !!r && row >= r.top && row < r.top + r.rowCount && column >= r.left && column < r.left + r.columnCount;
      }),
  );
}

export function createExcelWorkbook(options: ExcelWorkbookOptions = {}): WorkbookAdapter {
  const budget = options.payloadBudgetBytes ?? DEFAULT_PAYLOAD_BUDGET;
  let support: Record<ApiFeature, boolean> | null = null;
  const features = () => (support ??= detectSupport(options.excelApiVersion));
  let store: UndoStore | null = null;
  const undoStore = () => {
    if (store) return store;
    if (options.storage) return (store = new UndoStore(options.storage, ''));
    const partition = typeof Office !== 'undefined' ? Office.context?.partitionKey : undefined;
    return (store = new UndoStore(defaultStorage(), partition ? `${partition}:` : ''));
  };
  let cachedKey: string | null = null;

  async function documentKey(): Promise<string> {
    const url = typeof Office !== 'undefined' ? Office.context?.document?.url : null;
    if (url) return `url:${url}`;
    if (cachedKey) return cachedKey;
    // An unsaved workbook has no URL: fingerprint its sheets (names and ids), which a fill never changes.
    const names = await Excel.run(async (context) => {
      const sheets = context.workbook.worksheets;
      sheets.load('items/name,items/id');
      await context.sync();
      return sheets.items.map((s) => `${s.id}\u0001${s.name}`);
    });
    cachedKey = `sheets:${fnv1a(names.join('\u0002'))}`;
    return cachedKey;
  }

  /** Excel.run with a whole fill as one Ctrl+Z step where Excel supports it (ExcelApi 1.20). */
  function run<T>(batch: (context: Excel.RequestContext) => Promise<T>): Promise<T> {
    if (features().mergeUndoGroup) return Excel.run({ mergeUndoGroup: true } as Excel.RunOptions, batch);
    return Excel.run(batch);
  }

  async function plan(questions: QuestionWithAnswers[], planOptions: PlanOptions): Promise<WritePlan> {
    const f = features();
    return Excel.run(async (context) => {
      let syncs = 0;
      const onSync = () => void syncs++;
      const sheetNames = await loadSheetNames(context, onSync);
      let targets = targetCells(questions, sheetNames);
      let effective = questions;

      // A slot inside a merged area is written at its top-left cell (ExcelApi 1.13 lists merges).
      if (f.mergedAreas && targets.length > 0) {
        const anchors = await mergeAnchors(context, targets, onSync);
        if (anchors.size > 0) {
          effective = anchorSlotsToMerges(questions, sheetNames, (tab, address) => anchors.get(tab)?.get(address));
          targets = targetCells(effective, sheetNames);
        }
      }

      const read = await readCells(context, targets, {}, { support: f, budgetBytes: budget, onSync });
      const view = {
        sheetNames,
        protectedSheets: [...read.protectedSheets],
        cell: (tab: string, address: string): CellState | undefined => {
          const c = read.cells.get(tab)?.get(address);
          if (!c) return undefined;
          const value = c.valueType === 'Empty' ? null : c.value;
          return { value, hasFormula: c.hasFormula, ...(c.locked !== undefined ? { locked: read.protectedSheets.has(tab) && c.locked } : {}) };
        },
      };
      return planFill(effective, view, planOptions);
    });
  }

  async function apply(writePlan: WritePlan, annotate: AnnotateOptions): Promise<ApplyResult> {
    const f = features();
    const key = await documentKey();
    const failed: CellFailure[] = [];
    const warnings: string[] = [];
    if (writePlan.writes.length === 0) return { written: 0, failed, syncs: 0 };
    const wantNotes = !!annotate.sourceNotes && (f.notes || f.comments);
    if (annotate.sourceNotes && !wantNotes) warnings.push('Source notes need Excel with notes (ExcelApi 1.18) or comments (1.10); none were added.');

    return run(async (context) => {
      let syncs = 0;
      const onSync = () => void syncs++;
      const sheetNames = await loadSheetNames(context, onSync);

      const byTab = new Map<string, CellWrite[]>();
      for (const w of writePlan.writes) {
        if (!sheetNames.includes(w.tab)) {
          failed.push({ tab: w.tab, address: w.address, reason: `The sheet "${w.tab}" no longer exists.` });
          continue;
        }
        let list = byTab.get(w.tab);
        if (!list) byTab.set(w.tab, (list = []));
        list.push(w);
      }
      const targets = [...byTab].map(([tab, writes]) => ({ tab, addresses: [...new Set(writes.map((w) => w.address))] }));
      const read = await readCells(context, targets, { fills: !!annotate.highlight, annotations: wantNotes }, { support: f, budgetBytes: budget, onSync });

      // Re-check what changed since planning: formulas typed meanwhile, a sheet protected meanwhile.
      const kept = new Map<string, { write: CellWrite; before: CellRead }[]>();
      for (const [tab, writes] of byTab) {
        const cells = read.cells.get(tab)!;
        const isProtected = read.protectedSheets.has(tab);
        const seen = new Set<string>();
        const list: { write: CellWrite; before: CellRead }[] = [];
        for (const write of writes) {
          const before = cells.get(write.address);
          if (!before || seen.has(write.address)) continue;
          seen.add(write.address);
          if (before.hasFormula) {
            failed.push({ tab, address: write.address, reason: 'The cell now holds a formula; it was left alone.' });
          } else if (isProtected && before.locked !== false) {
            failed.push({ tab, address: write.address, reason: 'The sheet is protected and the cell is locked.' });
          } else list.push({ write, before });
        }
        if (list.length > 0) kept.set(tab, list);
      }

      // Undo snapshot first: saved before the first write so even an interrupted fill can be undone.
      const snapshot: UndoSnapshot = { version: 1, documentKey: key, createdAt: new Date().toISOString(), cellCount: 0, tabs: [], annotations: [] };
      const valueOps: BatchOp[] = [];
      const fillOps: BatchOp[] = [];
      const noteOps: { op: BatchOp; tab: string; address: string; kind: 'note' | 'comment' }[] = [];
      let written = 0;
      const onWritten = (n: number) => void (written += n);
      for (const [tab, list] of kept) {
        const isProtected = read.protectedSheets.has(tab);
        const highlight = !!annotate.highlight && !isProtected;
        if (annotate.highlight && isProtected) warnings.push(`"${tab}" is protected: cells there were not coloured.`);
        const blocks = groupIntoBlocks(list.map((k) => ({ address: k.write.address, k })));
        const snapBlocks: SnapshotBlock[] = blocks.map((b) => {
          const grid = <T>(f: (c: CellRead) => T) => b.cells.map((row) => row.map((c) => f(c.k.before)));
          return {
            address: b.address,
            formulas: pack(grid((c) => c.formula)),
            valueTypes: pack(grid((c) => c.valueType)),
            numberFormat: pack(grid((c) => c.numberFormat)),
            ...(highlight ? { fills: pack(grid((c) => c.fill ?? null)) } : {}),
          };
        });
        snapshot.tabs.push({ tab, blocks: snapBlocks });
        snapshot.cellCount += list.length;

        for (const b of blocks) {
          const block = { ...b, cells: b.cells.map((row) => row.map((c) => ({ address: c.address, input: cellTextForValues(c.k.write.value, c.k.write.forceText) }))) };
          valueOps.push(valuesOp({ tab, block }, onWritten));
        }
        if (highlight) {
          const coloured = list.filter((k) => k.write.trust).map((k) => ({ address: k.write.address, key: TRUST_FILLS[k.write.trust!] }));
          for (const { key: colour, block } of blocksByKey(coloured)) fillOps.push(fillOp(tab, block, colour));
        }
        if (wantNotes) {
          if (isProtected) warnings.push(`"${tab}" is protected: no source notes were added there.`);
          else {
            for (const { write } of list) {
              const text = sourceNoteText(write);
              if (!text || read.annotated.has(`${tab}!${write.address}`)) continue;
              const kind = f.notes ? 'note' : 'comment';
              noteOps.push({ op: annotationOp(tab, write.address, text, kind), tab, address: write.address, kind });
            }
          }
        }
      }
      snapshot.annotations = noteOps.map(({ tab, address, kind }) => ({ tab, address, kind }));
      const store = undoStore();
      if (snapshot.cellCount > 0 && !store.save(snapshot)) {
        warnings.push('The undo snapshot is too large for browser storage: Undo works until the task pane is closed.');
      }

      const beforeChunk = f.suspendCalculation ? (ctx: Excel.RequestContext) => ctx.application.suspendApiCalculationUntilNextSync() : undefined;
      const result = await runBatched(context, [...valueOps, ...fillOps, ...noteOps.map((n) => n.op)], { budgetBytes: budget, beforeChunk, onSync });
      const valueCells = new Set(valueOps.flatMap((op) => op.cells.map((c) => `${c.tab}!${c.address}`)));
      for (const x of result.failed) if (valueCells.has(`${x.tab}!${x.address}`)) failed.push(x);
      for (const x of result.failed) if (!valueCells.has(`${x.tab}!${x.address}`)) warnings.push(`${x.tab}!${x.address}: ${x.reason}`);
      const added = new Set(result.succeeded);
      const addedAnnotations = noteOps.filter((n) => added.has(n.op)).map(({ tab, address, kind }) => ({ tab, address, kind }));
      if (addedAnnotations.length !== snapshot.annotations.length && snapshot.cellCount > 0) {
        snapshot.annotations = addedAnnotations;
        store.save(snapshot);
      }
      const out: ApplyResult = { written, failed, syncs };
      if (warnings.length > 0) out.warnings = warnings;
      return out;
    });
  }

  function annotationOp(tab: string, address: string, text: string, kind: 'note' | 'comment'): BatchOp {
    return {
      bytes: OP_OVERHEAD + text.length,
      cells: [{ tab, address }],
      queue: (context) => {
        if (kind === 'note') context.workbook.worksheets.getItem(tab).notes.add(address, text);
        else context.workbook.comments.add(`'${tab.replace(/'/g, "''")}'!${address}`, text);
      },
      split: () => null,
    };
  }

  async function canUndo(): Promise<boolean> {
    return undoStore().load(await documentKey()) !== null;
  }

  async function undo(): Promise<UndoResult | null> {
    const key = await documentKey();
    const store = undoStore();
    const snapshot = store.load(key);
    if (!snapshot) return null;
    const f = features();
    return run(async (context) => {
      let syncs = 0;
      const onSync = () => void syncs++;
      const sheetNames = await loadSheetNames(context, onSync);
      const tabs = snapshot.tabs.filter((t) => sheetNames.includes(t.tab));
      const missing = snapshot.tabs.filter((t) => !sheetNames.includes(t.tab));

      // Current number formats: restored only where they changed (formatting a protected sheet fails).
      const targets = tabs.map((t) => ({
        tab: t.tab,
        addresses: t.blocks.flatMap((b) => {
          const r = parseA1Range(b.address)!;
          const out: string[] = [];
          for (let i = 0; i < r.rowCount; i++) for (let j = 0; j < r.columnCount; j++) out.push(toA1(r.top + i, r.left + j));
          return out;
        }),
      }));
      const read = await readCells(context, targets, { annotations: snapshot.annotations.length > 0 }, { support: f, budgetBytes: budget, onSync });

      const formatOps: BatchOp[] = [];
      const valueOps: BatchOp[] = [];
      const textOps: BatchOp[] = [];
      const fillOps: BatchOp[] = [];
      const noteOps: BatchOp[] = [];
      let restored = 0;
      for (const t of tabs) {
        const current = read.cells.get(t.tab)!;
        const fills: { address: string; key: string | null }[] = [];
        for (const b of t.blocks) {
          const r = parseA1Range(b.address)!;
          const formulas = unpack(b.formulas, r.rowCount, r.columnCount);
          const types = unpack(b.valueTypes, r.rowCount, r.columnCount);
          const formats = unpack(b.numberFormat, r.rowCount, r.columnCount);
          const savedFills = b.fills ? unpack(b.fills, r.rowCount, r.columnCount) : null;
          const cells: { address: string; input: unknown }[][] = [];
          for (let i = 0; i < r.rowCount; i++) {
            const row: { address: string; input: unknown }[] = [];
            for (let j = 0; j < r.columnCount; j++) {
              const address = toA1(r.top + i, r.left + j);
              const now = current.get(address);
              const how = restorePlan(formulas[i]![j]!, types[i]![j]!, formats[i]![j]!, !read.protectedSheets.has(t.tab));
              if ('viaTextFormat' in how) {
                textOps.push(textViaFormatOp(t.tab, address, how.viaTextFormat, formats[i]![j]!));
                row.push({ address, input: null });
              } else {
                if (now && now.numberFormat !== formats[i]![j]) formatOps.push(numberFormatOp(t.tab, address, formats[i]![j]!));
                row.push({ address, input: how.input });
              }
              if (savedFills) fills.push({ address, key: savedFills[i]![j] ?? null });
            }
            cells.push(row);
          }
          valueOps.push(valuesOp({ tab: t.tab, block: { address: b.address, top: r.top, left: r.left, rowCount: r.rowCount, columnCount: r.columnCount, cells } }, (n) => void (restored += n)));
        }
        for (const { key: colour, block } of blocksByKey(fills)) fillOps.push(fillOp(t.tab, block, colour));
      }
      for (const a of snapshot.annotations) {
        if (!read.annotated.has(`${a.tab}!${a.address}`)) continue;
        noteOps.push({
          bytes: OP_OVERHEAD,
          cells: [{ tab: a.tab, address: a.address }],
          queue: (ctx) => {
            if (a.kind === 'note') ctx.workbook.worksheets.getItem(a.tab).notes.getItem(a.address).delete();
            else ctx.workbook.comments.getItemByCell(`'${a.tab.replace(/'/g, "''")}'!${a.address}`).delete();
          },
          split: () => null,
        });
      }
      const result = await runBatched(context, [...formatOps, ...valueOps, ...textOps, ...fillOps, ...noteOps], { budgetBytes: budget, onSync });
      const failed = [...result.failed, ...missing.map((t) => ({ tab: t.tab, address: '', reason: `The sheet "${t.tab}" no longer exists.` }))];
      if (failed.length === 0) store.clear(key);
      const out: UndoResult = { restored, syncs };
      if (failed.length > 0) out.failed = failed;
      return out;
    });
  }

  async function select(ref: CellRef): Promise<void> {
    await Excel.run(async (context) => {
      const sheetNames = await loadSheetNames(context, () => undefined);
      const tab = resolveTab(ref.tab, sheetNames);
      if (!tab) throw new Error(`The workbook has no sheet named "${ref.tab}".`);
      const c = parseA1(ref.address);
      if (!c) throw new Error(`"${ref.address}" is not a cell address.`);
      const sheet = context.workbook.worksheets.getItem(tab);
      sheet.activate();
      sheet.getRange(ref.address.includes(':') ? ref.address.replace(/\$/g, '').replace(/^.*!/, '') : toA1(c.row, c.column)).select();
      await context.sync();
    });
  }

  async function getSelection(): Promise<CellRef | null> {
    try {
      return await Excel.run(async (context) => {
        const range = context.workbook.getSelectedRange();
        range.load('address');
        const sheet = range.worksheet;
        sheet.load('name');
        await context.sync();
        const { cell } = splitAddress(range.address);
        return cell ? { tab: sheet.name, address: cell } : null;
      });
    } catch (e) {
      // Selecting a chart or shape leaves no range selected: that is "no selection", not an error.
      if (officeErrorCode(e) === 'InvalidSelection') return null;
      throw e;
    }
  }

  async function onSelectionChanged(handler: (ref: CellRef) => void): Promise<() => void> {
    const notify = async () => {
      const ref = await getSelection().catch(() => null);
      if (ref) handler(ref);
    };
    if (features().protection) {
      const registration = await Excel.run(async (context) => {
        const result = context.workbook.onSelectionChanged.add(notify);
        await context.sync();
        return result;
      });
      return () => {
        void Excel.run(registration.context, async (context) => {
          registration.remove();
          await context.sync();
        }).catch(() => undefined);
      };
    }
    // ExcelApi 1.1: the Common API selection event.
    await new Promise<void>((resolve, reject) =>
      Office.context.document.addHandlerAsync(Office.EventType.DocumentSelectionChanged, notify, (r) =>
        r.status === Office.AsyncResultStatus.Succeeded ? resolve() : reject(new Error(`Could not follow the selection: ${r.error?.message}`)),
      ),
    );
    return () => Office.context.document.removeHandlerAsync(Office.EventType.DocumentSelectionChanged, { handler: notify });
  }

  async function insertIntoSelection(text: string, insertOptions: { overwrite?: boolean }): Promise<{ written: boolean; reason?: string }> {
    if (text.trim() === '') return { written: false, reason: 'There is nothing to insert.' };
    const f = features();
    return Excel.run(async (context) => {
      const selected = context.workbook.getSelectedRange();
      const cell = selected.getCell(0, 0);
      cell.load('address, values, formulas, valueTypes');
      const sheet = cell.worksheet;
      sheet.load('name');
      if (f.protection) {
        sheet.protection.load('protected');
        cell.format.protection.load('locked');
      }
      try {
        await context.sync();
      } catch (e) {
        if (officeErrorCode(e) === 'InvalidSelection') return { written: false, reason: 'Select a cell first.' };
        throw e;
      }
      const where = `${sheet.name}!${splitAddress(cell.address).cell}`;
      const formula = cell.formulas[0]![0];
      const value = cell.values[0]![0];
      if (typeof formula === 'string' && formula.startsWith('=') && formula !== value) {
        return { written: false, reason: `${where} holds a formula; it is never overwritten.` };
      }
      if (f.protection && sheet.protection.protected && cell.format.protection.locked !== false) {
        return { written: false, reason: `${where} is locked on a protected sheet.` };
      }
      if (cell.valueTypes[0]![0] !== 'Empty' && String(value).trim() !== '' && !insertOptions.overwrite) {
        return { written: false, reason: `${where} already holds a value; choose overwrite to replace it.` };
      }
      cell.values = [[cellTextForValues(text.trim())]];
      return syncOneWrite(context, where);
    });
  }

  async function writeCell(ref: CellRef, text: string, writeOptions: { overwrite?: boolean }): Promise<{ written: boolean; reason?: string }> {
    const key = await documentKey();
    const f = features();
    return run(async (context) => {
      const onSync = () => undefined;
      const sheetNames = await loadSheetNames(context, onSync);
      const tab = resolveTab(ref.tab, sheetNames);
      if (!tab) return { written: false, reason: `The workbook has no sheet named "${ref.tab}".` };
      const c = parseA1(ref.address);
      if (!c) return { written: false, reason: `"${ref.address}" is not a cell address.` };
      const address = toA1(c.row, c.column);
      const where = `${tab}!${address}`;
      const read = await readCells(context, [{ tab, addresses: [address] }], {}, { support: f, budgetBytes: budget, onSync });
      const before = read.cells.get(tab)?.get(address);
      if (!before) return { written: false, reason: `${where} could not be read.` };
      if (before.hasFormula) return { written: false, reason: `${where} holds a formula; it is never overwritten.` };
      if (read.protectedSheets.has(tab) && before.locked !== false) return { written: false, reason: `${where} is locked on a protected sheet.` };
      const store = undoStore();
      const snapshot = store.load(key);
      const inSnapshot = snapshot !== null && snapshotHolds(snapshot, tab, c.row, c.column);
      const occupied = before.valueType !== 'Empty' && String(before.value).trim() !== '';
      if (occupied && !inSnapshot && !writeOptions.overwrite) {
        return { written: false, reason: `${where} already holds a value that the fill did not write; choose to replace it if you mean to.` };
      }
      if (!inSnapshot) {
        // Saved before the write, like a fill's snapshot: Undo fill then restores this cell too.
        const next: UndoSnapshot = snapshot ?? { version: 1, documentKey: key, createdAt: new Date().toISOString(), cellCount: 0, tabs: [], annotations: [] };
        let entry = next.tabs.find((t) => t.tab === tab);
        if (!entry) next.tabs.push((entry = { tab, blocks: [] }));
        entry.blocks.push({ address, formulas: { all: before.formula }, valueTypes: { all: before.valueType }, numberFormat: { all: before.numberFormat } });
        next.cellCount += 1;
        store.save(next);
      }
      const range = context.workbook.worksheets.getItem(tab).getRange(address);
      range.values = [[text.trim() === '' ? '' : cellTextForValues(text.trim())]];
      range.untrack();
      return syncOneWrite(context, where);
    });
  }

  /** The displayed text of cells, in one batched read; '' for an empty cell or one that does not exist. */
  async function readValues(refs: CellRef[]): Promise<string[]> {
    if (refs.length === 0) return [];
    const f = features();
    return Excel.run(async (context) => {
      const onSync = () => undefined;
      const sheetNames = await loadSheetNames(context, onSync);
      const byTab = new Map<string, Set<string>>();
      const resolved = refs.map((ref) => {
        const tab = resolveTab(ref.tab, sheetNames);
        const c = parseA1(ref.address);
        if (!tab || !c) return null;
        const address = toA1(c.row, c.column);
        let set = byTab.get(tab);
        if (!set) byTab.set(tab, (set = new Set()));
        set.add(address);
        return { tab, address };
      });
      const targets = [...byTab].map(([tab, set]) => ({ tab, addresses: [...set] }));
      const read = await readCells(context, targets, {}, { support: f, budgetBytes: budget, onSync });
      return resolved.map((r) => {
        const cell = r ? read.cells.get(r.tab)?.get(r.address) : undefined;
        return cell && cell.valueType !== 'Empty' ? String(cell.value ?? '') : '';
      });
    });
  }

  async function readFile(onProgress?: (p: ReadProgress) => void) {
    return readOpenWorkbook({ ...options.readFile, onProgress });
  }

  return { readFile, plan, apply, canUndo, undo, select, getSelection, onSelectionChanged, insertIntoSelection, writeCell, readValues, documentKey };
}
