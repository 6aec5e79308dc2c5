/** Evidence behind an answer, collapsed by default: file, page and the excerpt, all as plain text. */

export interface SourceItem {
  filename: string;
  page: number | null;
  excerpt: string;
  score?: number | null;
}

function pageLabel(page: number | null): string {
  return page && page > 0 ? `, page ${page}` : '';
}

export function Sources(props: { sources: SourceItem[]; open?: boolean }) {
  if (props.sources.length === 0) return <p class="qf-muted qf-small">No sources were given for this answer.</p>;
  return (
    <details class="qf-sources" open={props.open}>
      <summary>
        {props.sources.length} source{props.sources.length === 1 ? '' : 's'}
      </summary>
      <ol>
        {props.sources.map((s, i) => (
          <li key={i}>
            <strong>{s.filename || 'unnamed file'}</strong>
            {pageLabel(s.page)}
            <span class="qf-excerpt">{s.excerpt}</span>
          </li>
        ))}
      </ol>
    </details>
  );
}
