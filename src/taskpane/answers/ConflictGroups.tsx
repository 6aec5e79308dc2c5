/** Entries that answer one question differently, side by side: "Use this answer" settles it once; Undo reopens it. */
import { useEffect } from 'preact/hooks';
import type { LibraryConflict } from '../../api/library';
import type { Offering } from '../../api/schemas';
import { Pager } from '../components/Controls';
import { ErrorMessage, Note } from '../components/Message';
import { useStore } from '../use-store';
import { CONFLICTS_PAGE, chosenIn, type ConflictsController } from './conflicts';
import { offeringText, sectionText, sourceText } from './words';

/**
 * Groups in sections of their source questionnaire (the section of its first live entry within its
 * sheet, else the sheet), in the order they come; answers added by hand under their own heading.
 */
function bySection(groups: readonly LibraryConflict[]): [string, LibraryConflict[]][] {
  const sections = new Map<string, LibraryConflict[]>();
  for (const g of groups) {
    const first = g.entries.find((e) => e.status !== 'retired') ?? g.entries[0];
    const section = first ? sectionText(first) : 'Added by hand';
    sections.set(section, [...(sections.get(section) ?? []), g]);
  }
  return [...sections];
}

const SIDE_BY_SIDE = { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(140px, 1fr))', gap: '6px' };

export function ConflictGroups(props: { conflicts: ConflictsController; offerings: readonly Offering[]; offeringId: number | null }) {
  const c = props.conflicts;
  const s = useStore(c);
  useEffect(() => {
    if (props.offeringId !== c.state.offeringId) c.setOffering(props.offeringId);
    else void c.load();
  }, [c, props.offeringId]);
  return (
    <section aria-label="Conflicts">
      <ErrorMessage error={s.error} />
      <ErrorMessage error={s.actionError} />
      {s.note && <Note kind="ok">{s.note}</Note>}
      {s.groups && s.groups.results.length === 0 && <p class="qf-muted">No conflicts: no two answers in the library disagree.</p>}
      {bySection(s.groups?.results ?? []).map(([section, groups]) => (
        <section key={section} aria-label={`Section ${section}`}>
          <h4 class="qf-small">{section}</h4>
          {groups.map((g) => (
            <Group key={g.question_key} group={g} conflicts={c} busy={s.busy !== null} offerings={props.offerings} />
          ))}
        </section>
      ))}
      {s.groups && <Pager page={s.page} count={s.groups.count} pageSize={CONFLICTS_PAGE} hasNext={s.groups.hasNext} onPage={c.setPage} />}
    </section>
  );
}

function Group(props: { group: LibraryConflict; conflicts: ConflictsController; busy: boolean; offerings: readonly Offering[] }) {
  const { group: g, conflicts: c } = props;
  const chosen = chosenIn(g);
  // Settled for the offering listed, not for the question: the others stay for other offerings.
  const forOffering = g.offering_id != null && g.canonical_id === null;
  return (
    <div class="qf-card" role="group" aria-label={g.question}>
      <p>
        <strong>{g.question}</strong>{' '}
        {chosen !== null ? <span class="qf-badge qf-trust-high">Settled</span> : <span class="qf-badge qf-trust-low">Conflict</span>}
      </p>
      <div style={SIDE_BY_SIDE}>
        {g.entries.map((e) => (
          <div key={e.id} class="qf-card" aria-label={`Answer from ${sourceText(e)}`}>
            <div class="qf-answer">{e.answer}</div>
            <div class="qf-small qf-muted">
              {sourceText(e)} · as of {e.as_of} · {offeringText(e, props.offerings)}
            </div>
            {chosen === null ? (
              <button type="button" class="qf-btn qf-btn-primary" disabled={props.busy} onClick={() => void c.settle(g, e.id)}>
                Use this answer
              </button>
            ) : e.id === chosen ? (
              <span class="qf-badge qf-trust-high">Chosen</span>
            ) : (
              <span class="qf-badge qf-muted">{forOffering ? 'Not for this offering' : 'Retired'}</span>
            )}
          </div>
        ))}
      </div>
      {chosen !== null && (
        <button type="button" class="qf-link" disabled={props.busy} onClick={() => void c.undo(g)}>
          Undo
        </button>
      )}
    </div>
  );
}
