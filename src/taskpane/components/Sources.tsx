/** Evidence behind an answer, collapsed by default: file, page, whose document it is, and the excerpt, as plain text. */

export interface SourceItem {
  filename: string;
  page: number | null;
  excerpt: string;
  score?: number | null;
  /** Another organisation's document (a subprocessor's report, an auditor's opinion): its name. */
  thirdParty?: string | null;
}

const THIRD_PARTY = 'third party: ';

/** The service's `third_party`, or the label it puts at the head of the heading trail (stored chat sources). */
export function thirdPartyOf(s: { third_party?: string | null; context_header?: string | null }): string | null {
  if (s.third_party) return s.third_party;
  const h = s.context_header ?? '';
  return h.startsWith(THIRD_PARTY) ? h.slice(THIRD_PARTY.length).split(' · ')[0]!.trim() || null : null;
}

function pageLabel(page: number | null): string {
  return page && page > 0 ? `, page ${page}` : '';
}

export function Sources(props: { sources: SourceItem[]; open?: boolean }) {
  if (props.sources.length === 0) return <p class="qf-muted qf-small">No sources were given for this answer.</p>;
  const others = props.sources.filter((s) => s.thirdParty).length;
  return (
    <details class="qf-sources" open={props.open}>
      <summary>
        {props.sources.length} source{props.sources.length === 1 ? '' : 's'}
        {others ? ` (${others} from a third party)` : ''}
      </summary>
      <ol>
        {props.sources.map((s, i) => (
          <li key={i}>
            <strong>{s.filename || 'unnamed file'}</strong>
            {pageLabel(s.page)}
            {s.thirdParty && <span class="qf-badge qf-trust-medium">third party: {s.thirdParty}</span>}
            <span class="qf-excerpt">{s.excerpt}</span>
          </li>
        ))}
      </ol>
    </details>
  );
}
