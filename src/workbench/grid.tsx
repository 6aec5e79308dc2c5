/**
 * The workbench's picture of the host workbook: sheet tabs and a scrollable grid of the active sheet,
 * with fills, notes and the selection as Excel would show them. It reads the host directly (it is the
 * "Excel window"), and a click selects like a user's click, raising Excel's selection events. Cells
 * are edited as in Excel (type, F2 or double-click, paste, Delete, Ctrl+Z): see ./grid-keys.ts.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { HostOfficeError } from './host/errors';
import type { ExcelHost } from './host/host';
import { toA1, columnToLetters } from '../xlsx/a1';
import { getCell, mergeAt, readText, usedRect, type HostSheet } from './host/model';
import { CellEditor, gridKeyDown, type EditState } from './grid-keys';
import { textOnFill } from '../taskpane/contrast';
import { UserEdits } from './user-edits';

const MAX_ROWS = 2000;
const MAX_COLUMNS = 40;

function useHostVersion(host: ExcelHost): number {
  const [version, setVersion] = useState(0);
  useEffect(() => host.onChange(() => setVersion((v) => v + 1)), [host]);
  return version;
}

export function SheetTabs(props: { host: ExcelHost; active: HostSheet }) {
  return (
    <div class="wb-tabs" role="tablist" aria-label="Sheets">
      {props.host.sheets
        .filter((s) => s.visibility === 'Visible')
        .map((s) => (
          <button
            type="button"
            role="tab"
            aria-selected={s.id === props.active.id}
            data-sheet={s.name}
            class={s.id === props.active.id ? 'wb-tab wb-tab-active' : 'wb-tab'}
            onClick={() => props.host.userSelect(s.name, s.selection)}
          >
            {s.protection.protected ? `🔒 ${s.name}` : s.name}
          </button>
        ))}
    </div>
  );
}

export function Grid(props: { host: ExcelHost }) {
  useHostVersion(props.host);
  const edits = useMemo(() => new UserEdits(props.host), [props.host]);
  const [editing, setEditing] = useState<EditState | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const sheet = props.host.activeSheet();
  const used = usedRect(sheet);
  const rows = Math.min(Math.max(used ? used.top + used.rowCount - 1 : 0, 30), MAX_ROWS);
  const columns = Math.min(Math.max(used ? used.left + used.columnCount - 1 : 0, 8), MAX_COLUMNS);
  const selected = sheet.selection.split(':')[0] ?? 'A1';
  const scroller = useRef<HTMLDivElement>(null);
  // Like Excel, bring the selected cell into view when the add-in selects it (e.g. from the review list).
  useEffect(() => {
    scroller.current?.querySelector(`[data-cell="${selected}"]`)?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [sheet.name, selected]);

  /** Runs an edit; a refused one (a locked cell on a protected sheet) says why, as Excel does. */
  const attempt = (f: () => void): boolean => {
    try {
      f();
      setProblem(null);
      return true;
    } catch (e) {
      // The host keeps Excel's terse API message and puts which cell in the details: show those, as Excel's own dialog names the sheet.
      const details = e instanceof HostOfficeError ? e.debugInfo.details : undefined;
      setProblem(details ?? (e instanceof Error ? e.message : String(e)));
      return false;
    }
  };
  const context = { host: props.host, edits, sheet, selected, setEditing, attempt, focus: () => scroller.current?.focus() };

  const body = [];
  for (let r = 1; r <= rows; r++) {
    const cells = [
      <th scope="row" class="wb-rowhead">
        {r}
      </th>,
    ];
    for (let c = 1; c <= columns; c++) {
      const merge = mergeAt(sheet, r, c);
      if (merge && (merge.top !== r || merge.left !== c)) continue;
      const address = toA1(r, c);
      const cell = getCell(sheet, r, c);
      const note = sheet.notes.get(address)?.content ?? sheet.comments.get(address)?.content;
      const classes = ['wb-cell'];
      if (address === selected) classes.push('wb-selected');
      if (cell.formula) classes.push('wb-formula');
      // A filled cell keeps its fill in a dark workbench, as Excel shows it; its text takes the colour
      // that reads on that fill (the file's font colours are not read: a dark header fill gets white text).
      if (cell.fill) classes.push('wb-filled');
      const isEditing = editing !== null && editing.sheet === sheet.name && editing.address === address;
      cells.push(
        <td
          data-cell={address}
          class={classes.join(' ')}
          rowSpan={merge?.rowCount}
          colSpan={merge?.columnCount}
          style={cell.fill ? { background: cell.fill, color: textOnFill(cell.fill) } : undefined}
          title={[cell.formula ? `Formula: ${cell.formula}` : '', note ? `Note: ${note}` : ''].filter(Boolean).join('\n') || undefined}
          onClick={() => {
            props.host.userSelect(sheet.name, address);
            scroller.current?.focus();
          }}
          onDblClick={() => setEditing({ sheet: sheet.name, address, text: cell.formula ?? readText(cell) })}
        >
          {isEditing ? <CellEditor state={editing} context={context} /> : readText(cell)}
          {note ? <span class="wb-note" aria-label="has a note" /> : null}
        </td>,
      );
    }
    body.push(<tr>{cells}</tr>);
  }

  return (
    <div class="wb-sheet">
      <div class="wb-namebox" aria-live="polite">
        <span data-testid="selection">{`${sheet.name}!${sheet.selection}`}</span>
        <span class="wb-formula-bar" data-testid="formula-bar">
          {(() => {
            const cell = props.host.getCell(sheet.name, selected);
            return cell.formula ?? readText(cell);
          })()}
        </span>
      </div>
      {problem ? (
        <p role="alert" class="wb-cell-problem">
          {problem}
        </p>
      ) : null}
      <div
        class="wb-scroll"
        ref={scroller}
        tabIndex={0}
        aria-label={`Cells of ${sheet.name}: type to edit the selected cell`}
        onKeyDown={(e) => gridKeyDown(e, context)}
        onPaste={(e) => {
          const text = e.clipboardData?.getData('text/plain');
          if (editing || text === undefined) return;
          e.preventDefault();
          attempt(() => props.host.userSelect(sheet.name, edits.paste(sheet.name, selected, text)));
        }}
      >
        <table class="wb-grid" aria-label={`Sheet ${sheet.name}`}>
          <thead>
            <tr>
              <th />
              {Array.from({ length: columns }, (_, i) => (
                <th scope="col">{columnToLetters(i + 1)}</th>
              ))}
            </tr>
          </thead>
          <tbody>{body}</tbody>
        </table>
      </div>
      <SheetTabs host={props.host} active={sheet} />
    </div>
  );
}
