/** The questions the Fill pane asks before something is destroyed: overwriting values, and undoing over later edits. */
import type { FillSession, FillState } from '../../fill/session';
import { clip, plural } from './view';

const PREVIEW = 5;

/** A question before something is destroyed: what would be lost (the first few), and the choices. */
export function Confirm(props: { label: string; title: string; items: { key: string; text: string }[]; choices: [string, () => void][] }) {
  return (
    <div class="qf-msg qf-msg-warn" role="group" aria-label={props.label}>
      <p>
        <strong>{props.title}</strong>
      </p>
      <ul class="qf-small">
        {props.items.slice(0, PREVIEW).map((x) => (
          <li key={x.key}>{x.text}</li>
        ))}
        {props.items.length > PREVIEW && <li>… and {props.items.length - PREVIEW} more.</li>}
      </ul>
      <div class="qf-row">
        {props.choices.map(([label, onClick], i) => (
          <button key={label} type="button" class={i === 0 ? 'qf-btn qf-btn-primary' : 'qf-btn'} onClick={onClick}>
            {label}
          </button>
        ))}
      </div>
    </div>
  );
}

/** Overwrite would replace values in the workbook: which, and whether to. */
export function ConfirmOverwrite(props: { replacements: NonNullable<FillState['replacements']>; session: FillSession }) {
  const { replacements, session } = props;
  return (
    <Confirm
      label="Confirm overwrite"
      title={`Overwrite will replace ${plural(replacements.length, 'existing value')} in this workbook. Undo fill can put them back.`}
      items={replacements.map((x) => ({
        key: `${x.tab}!${x.address}`,
        text: `${x.tab}!${x.address}${x.originalId ? ` (${x.originalId})` : ''}: “${clip(x.current)}” → “${clip(x.next)}”`,
      }))}
      choices={[
        [`Replace ${plural(replacements.length, 'value')}`, () => void session.confirmOverwrite('replace')],
        ['Keep them, fill only empty cells', () => void session.confirmOverwrite('keep')],
        ['Cancel', () => void session.confirmOverwrite('cancel')],
      ]}
    />
  );
}

/** Cells changed after the fill: Undo fill would lose those edits unless they are kept. */
export function ConfirmUndo(props: { laterEdits: NonNullable<FillState['laterEdits']>; session: FillSession }) {
  const { laterEdits, session } = props;
  const one = laterEdits.length === 1;
  return (
    <Confirm
      label="Confirm undo"
      title={`${plural(laterEdits.length, 'cell was', 'cells were')} changed after the fill: Undo fill would put ${one ? 'it' : 'them'} back as before the fill, losing ${
        one ? 'that edit' : 'those edits'
      }.`}
      items={laterEdits.map((x) => ({ key: `${x.tab}!${x.address}`, text: `${x.tab}!${x.address}: “${clip(x.value)}”` }))}
      choices={[
        [`Undo, keeping my ${plural(laterEdits.length, 'edit')}`, () => void session.undo(true)],
        ['Undo everything', () => void session.undo(false)],
        ['Cancel', () => session.cancelUndo()],
      ]}
    />
  );
}
