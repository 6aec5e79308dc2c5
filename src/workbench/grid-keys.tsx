/**
 * The grid's keyboard, as in Excel: arrows, Enter and Tab move the selection; typing a character
 * starts editing the selected cell with it, F2 or a double-click edits what it holds; Enter or Tab
 * in the editor writes the cell and moves on, Escape leaves it unchanged, Alt+Enter adds a line
 * break; Delete clears the selection's contents; Ctrl+Z undoes the analyst's own last edit. Paste
 * arrives as the browser's paste event (the grid handles it).
 */
import { useLayoutEffect, useRef } from 'preact/hooks';
import { parseA1, toA1 } from '../xlsx/a1';
import type { ExcelHost } from './host/host';
import { mergeAt, type HostSheet } from './host/model';
import type { UserEdits } from './user-edits';

export interface EditState {
  sheet: string;
  address: string;
  /** What the editor opens with: the typed character, or the cell's formula or text. */
  text: string;
}

export interface GridContext {
  host: ExcelHost;
  edits: UserEdits;
  sheet: HostSheet;
  /** The selected (active) cell. */
  selected: string;
  setEditing(state: EditState | null | ((previous: EditState | null) => EditState | null)): void;
  /** Runs an edit and shows why it was refused; false when it was. */
  attempt(edit: () => void): boolean;
  /** Gives the keyboard back to the grid. */
  focus(): void;
}

/** Moves the selection by rows and columns, over a merged area as one cell, never above A1. */
export function moveSelection(ctx: GridContext, rows: number, columns: number): void {
  const at = parseA1(ctx.selected) ?? { row: 1, column: 1 };
  const merge = mergeAt(ctx.sheet, at.row, at.column);
  let row = at.row + (rows > 0 && merge ? merge.top + merge.rowCount - 1 - at.row + rows : rows);
  let column = at.column + (columns > 0 && merge ? merge.left + merge.columnCount - 1 - at.column + columns : columns);
  row = Math.max(1, row);
  column = Math.max(1, column);
  const landing = mergeAt(ctx.sheet, row, column);
  ctx.host.userSelect(ctx.sheet.name, landing ? toA1(landing.top, landing.left) : toA1(row, column));
}

const MOVES: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

export function gridKeyDown(e: KeyboardEvent, ctx: GridContext): void {
  if (e.target !== e.currentTarget) return; // the cell editor has its own keys
  const mod = e.ctrlKey || e.metaKey;
  if (mod && e.key.toLowerCase() === 'z' && !e.shiftKey) {
    e.preventDefault();
    ctx.attempt(() => void ctx.edits.undo());
    return;
  }
  if (mod || e.altKey) return; // Ctrl+V reaches the grid as a paste event
  const move = MOVES[e.key];
  if (move) {
    e.preventDefault();
    moveSelection(ctx, move[0], move[1]);
  } else if (e.key === 'Enter' || e.key === 'Tab') {
    e.preventDefault();
    const back = e.shiftKey ? -1 : 1;
    if (e.key === 'Enter') moveSelection(ctx, back, 0);
    else moveSelection(ctx, 0, back);
  } else if (e.key === 'Delete' || e.key === 'Backspace') {
    e.preventDefault();
    ctx.attempt(() => ctx.edits.clear(ctx.sheet.name, ctx.sheet.selection));
  } else if (e.key === 'F2') {
    e.preventDefault();
    const cell = ctx.host.getCell(ctx.sheet.name, ctx.selected);
    ctx.setEditing({ sheet: ctx.sheet.name, address: ctx.selected, text: cell.formula ?? (cell.value === null ? '' : String(cell.value)) });
  } else if (e.key.length === 1) {
    e.preventDefault();
    // Keys typed before the editor has the focus (fast typing) add to the edit instead of restarting it.
    const key = e.key;
    const at = { sheet: ctx.sheet.name, address: ctx.selected };
    ctx.setEditing((previous) =>
      previous && previous.sheet === at.sheet && previous.address === at.address ? { ...previous, text: previous.text + key } : { ...at, text: key },
    );
  }
}

/**
 * The in-cell editor: a one-line text area over the cell, written on Enter, Tab or leaving it. Its text
 * is its own (uncontrolled), so a re-render while typing (a sync, the page keeping the workbook) never
 * resets it; it takes the focus before the next key event is handled.
 */
export function CellEditor(props: { state: EditState; context: GridContext }) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const done = useRef(false);
  useLayoutEffect(() => {
    const input = ref.current;
    if (!input) return;
    // First the opening text; later only keys that reached the grid before the focus did (appended).
    if (input.value === '' || (props.state.text.startsWith(input.value) && props.state.text.length > input.value.length)) input.value = props.state.text;
    if (document.activeElement !== input) input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  }, [props.state.text]);
  const finish = (write: boolean, rows: number, columns: number) => {
    if (done.current) return;
    done.current = true;
    const ctx = props.context;
    const text = ref.current?.value ?? props.state.text;
    const ok = write ? ctx.attempt(() => ctx.edits.type(props.state.sheet, props.state.address, text)) : true;
    ctx.setEditing(null);
    if (ok && (rows || columns)) moveSelection(ctx, rows, columns);
    ctx.focus();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const input = e.currentTarget as HTMLTextAreaElement;
    if (e.key === 'Enter' && e.altKey) {
      e.preventDefault();
      const at = input.selectionStart;
      input.value = `${input.value.slice(0, at)}\n${input.value.slice(input.selectionEnd)}`;
      input.setSelectionRange(at + 1, at + 1);
    } else if (e.key === 'Enter' || e.key === 'Tab') {
      e.preventDefault();
      const back = e.shiftKey ? -1 : 1;
      finish(true, e.key === 'Enter' ? back : 0, e.key === 'Tab' ? back : 0);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      finish(false, 0, 0);
    }
  };
  return (
    <textarea
      ref={ref}
      class="wb-editor"
      rows={1}
      aria-label={`Edit ${props.state.sheet}!${props.state.address}`}
      data-testid="cell-editor"
      onKeyDown={onKeyDown}
      onBlur={() => finish(true, 0, 0)}
    />
  );
}
