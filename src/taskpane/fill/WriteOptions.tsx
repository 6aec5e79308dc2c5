/** The Fill pane's "When writing" options; disabled while a fill runs or waits for a choice. */
import type { FillOptions } from '../../fill/session';

const CHOICES: [keyof FillOptions, string][] = [
  ['overwrite', 'Overwrite cells that already hold a value (never formulas; you confirm first)'],
  ['writeDrafts', 'Also write drafts into cells (by default drafts stay in the review)'],
  ['preferRecent', "Where past answers disagree, take the most recent questionnaire's (else they wait for review)"],
  ['highlight', 'Highlight answers by trust'],
  ['sourceNotes', 'Add a note with the sources'],
];

export function WriteOptions(props: { options: FillOptions; disabled: boolean; onChange: (patch: Partial<FillOptions>) => void }) {
  return (
    <fieldset class="qf-fieldset" disabled={props.disabled}>
      <legend>When writing</legend>
      {CHOICES.map(([key, label]) => (
        <label key={key} class="qf-check">
          <input type="checkbox" checked={!!props.options[key]} onChange={(e) => props.onChange({ [key]: e.currentTarget.checked })} />
          <span>{label}</span>
        </label>
      ))}
    </fieldset>
  );
}
