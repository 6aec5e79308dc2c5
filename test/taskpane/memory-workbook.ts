/**
 * An in-memory WorkbookAdapter for the pane tests: cells in a map, planning by the real `src/fill`
 * planner, writes with an undo snapshot, selection with change events. It records what the panes
 * asked of it (selects, inserts) so tests can check the pane drove the workbook.
 */
import type { QuestionWithAnswers } from '../../src/api/schemas';
import type { AnnotateOptions, ApplyResult, CellRef, ReadProgress, UndoOptions, UndoResult, WorkbookAdapter } from '../../src/excel/types';
import { cellRefusal, refusalDetail } from '../../src/fill/cell-safety';
import { planFill } from '../../src/fill/plan';
import type { CellState, PlanOptions, WritePlan } from '../../src/fill/types';

export class MemoryWorkbook implements WorkbookAdapter {
  readonly cells = new Map<string, CellState>();
  readonly selects: CellRef[] = [];
  readonly inserts: { text: string; overwrite: boolean }[] = [];
  readonly applied: AnnotateOptions[] = [];
  selection: CellRef | null = null;
  private snapshot: Map<string, CellState | undefined> | null = null;
  private handlers: ((ref: CellRef) => void)[] = [];

  constructor(
    readonly sheetNames: string[] = ['Security', 'Privacy'],
    readonly key = 'doc-1',
    readonly bytes: Uint8Array = new Uint8Array(2500).fill(7),
  ) {}

  static cellKey(tab: string, address: string): string {
    return `${tab}!${address}`;
  }

  value(tab: string, address: string): CellState['value'] | undefined {
    return this.cells.get(MemoryWorkbook.cellKey(tab, address))?.value;
  }

  set(tab: string, address: string, value: CellState['value']): void {
    this.cells.set(MemoryWorkbook.cellKey(tab, address), { value, hasFormula: false });
  }

  /** What Excel does when the analyst clicks a cell. */
  userSelects(ref: CellRef): void {
    this.selection = ref;
    for (const h of this.handlers) h(ref);
  }

  async readFile(onProgress?: (p: ReadProgress) => void) {
    const total = this.bytes.length;
    for (let loaded = 1000; loaded < total; loaded += 1000) onProgress?.({ loaded, total });
    onProgress?.({ loaded: total, total });
    return { bytes: this.bytes, fileName: 'questionnaire.xlsx' };
  }

  async plan(questions: QuestionWithAnswers[], options: PlanOptions): Promise<WritePlan> {
    return planFill(questions, { sheetNames: this.sheetNames, cell: (tab, address) => this.cells.get(MemoryWorkbook.cellKey(tab, address)) }, options);
  }

  async apply(plan: WritePlan, options: AnnotateOptions): Promise<ApplyResult> {
    this.applied.push(options);
    // As src/excel: nothing to write leaves the last snapshot alone.
    if (plan.writes.length === 0) return { written: 0, failed: [], syncs: 0 };
    this.snapshot = new Map();
    for (const w of plan.writes) {
      const key = MemoryWorkbook.cellKey(w.tab, w.address);
      if (!this.snapshot.has(key)) this.snapshot.set(key, this.cells.get(key));
      this.cells.set(key, { value: w.value, hasFormula: false });
    }
    return { written: plan.writes.length, failed: [], syncs: 1 };
  }

  async canUndo() {
    return this.snapshot !== null;
  }

  async undo(options: UndoOptions = {}): Promise<UndoResult | null> {
    if (!this.snapshot) return null;
    const keep = new Set((options.keep ?? []).map((c) => MemoryWorkbook.cellKey(c.tab, c.address)));
    let restored = 0;
    for (const [key, state] of this.snapshot) {
      if (keep.has(key)) continue;
      if (state === undefined) this.cells.delete(key);
      else this.cells.set(key, state);
      restored++;
    }
    this.snapshot = null;
    return { restored };
  }

  async select(ref: CellRef) {
    this.selects.push(ref);
    this.selection = ref;
  }

  async getSelection() {
    return this.selection;
  }

  async onSelectionChanged(handler: (ref: CellRef) => void) {
    this.handlers.push(handler);
    return () => {
      this.handlers = this.handlers.filter((h) => h !== handler);
    };
  }

  async insertIntoSelection(text: string, options: { overwrite?: boolean }) {
    this.inserts.push({ text, overwrite: !!options.overwrite });
    if (!this.selection) return { written: false, reason: 'No cell is selected.' };
    const existing = this.value(this.selection.tab, this.selection.address);
    if (existing !== undefined && existing !== null && existing !== '' && !options.overwrite) {
      return { written: false, reason: `${this.selection.address} already holds a value.` };
    }
    this.set(this.selection.tab, this.selection.address, text);
    return { written: true };
  }

  readonly corrections: { ref: CellRef; text: string; overwrite: boolean }[] = [];

  /** Same rules as src/excel: no formulas, no foreign values without overwrite, old content joins the undo snapshot. */
  async writeCell(ref: CellRef, text: string, options: { overwrite?: boolean }) {
    this.corrections.push({ ref, text, overwrite: !!options.overwrite });
    if (!this.sheetNames.includes(ref.tab)) return { written: false, reason: `The workbook has no sheet named "${ref.tab}".` };
    const key = MemoryWorkbook.cellKey(ref.tab, ref.address);
    const before = this.cells.get(key);
    const ours = this.snapshot?.has(key) ?? false;
    const refusal = cellRefusal(before, { overwrite: options.overwrite || ours });
    if (refusal === 'occupied') return { written: false, reason: `${key} already holds a value that the fill did not write.` };
    if (refusal) return { written: false, reason: refusalDetail(refusal, key) };
    this.snapshot ??= new Map();
    if (!ours) this.snapshot.set(key, before);
    this.cells.set(key, { value: text.trim(), hasFormula: false });
    return { written: true };
  }

  async readValues(refs: CellRef[]): Promise<string[]> {
    return refs.map((r) => {
      const v = this.value(r.tab, r.address);
      return v === undefined || v === null ? '' : String(v);
    });
  }

  async documentKey() {
    return this.key;
  }
}

export function memoryStorage(): Storage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (k: string) => map.get(k) ?? null,
    key: (i: number) => [...map.keys()][i] ?? null,
    removeItem: (k: string) => void map.delete(k),
    setItem: (k: string, v: string) => void map.set(k, String(v)),
  };
}
