/** One file of the library: its status, what it gave the knowledge base, its progress, and Delete with a confirmation. */
import type { RepositoryFile } from '../../api/schemas';
import { BusyButtons } from '../components/BusyButtons';
import { ProgressBar } from '../components/Progress';
import { busyStatus, plural } from './state';
import { capitalise, formatLabel, importNote, typeLabel } from './labels';

export function FileRow(props: {
  file: RepositoryFile;
  canDelete: boolean;
  confirming: boolean;
  deleting: boolean;
  onAsk: () => void;
  onCancel: () => void;
  onDelete: () => void;
}) {
  const f = props.file;
  const name = f.original_filename ?? f.url ?? `file ${f.id}`;
  const percent = Math.max(0, Math.min(100, f.processing_percent ?? 0));
  const qa = f.qa_count ?? 0;
  const imported = f.status === 'ready' ? importNote(f.note) : null;
  return (
    <li>
      <div>
        <strong>{name}</strong>{' '}
        <span class={`qf-badge ${f.status === 'failed' ? 'qf-trust-low' : f.status === 'ready' ? 'qf-trust-high' : 'qf-muted'}`}>
          {f.status_display || capitalise(f.status)}
        </span>
        {f.expired && (
          <>
            {' '}
            <span class="qf-badge qf-trust-low" title={f.valid_said ?? undefined}>
              Expired {f.valid_until}
            </span>
          </>
        )}
      </div>
      <div class="qf-small qf-muted">
        {[
          typeLabel(f.document_type),
          formatLabel(f.file_format),
          f.passage_count ? plural(f.passage_count, 'passage') : '',
          // What an imported questionnaire or Q&A sheet gave the answer library.
          f.status === 'ready' && qa > 0 ? plural(qa, 'reusable answer') : '',
          ...(f.relevant_offerings ?? []).map((o) => o.name),
          ...(f.tags ?? []).map((t) => `#${t.name}`),
          // The date it states about itself (else its upload), and until when it holds.
          f.as_of ? `as of ${f.as_of}` : '',
          f.valid_until && !f.expired ? `valid until ${f.valid_until}` : '',
        ]
          .filter(Boolean)
          .join(' · ')}
      </div>
      {imported && <div class={imported.warn ? 'qf-msg qf-msg-warn qf-small' : 'qf-small'}>{imported.text}</div>}
      {busyStatus(f) && (
        <ProgressBar
          value={percent}
          max={100}
          label={`Processing ${f.original_filename ?? ''}`}
          text={`${f.processing_stage || (f.status === 'submitted' ? 'queued' : 'processing')}: ${percent}%`}
        />
      )}
      {f.status === 'failed' && <div class="qf-msg qf-msg-error qf-small">Processing failed: {f.error || 'the service gave no reason.'}</div>}
      {props.canDelete && !props.confirming && !busyStatus(f) && (
        <button type="button" class="qf-link qf-small" aria-label={`Delete ${name}`} onClick={props.onAsk}>
          Delete
        </button>
      )}
      {props.confirming && (
        <div class="qf-msg qf-msg-warn" role="alertdialog" aria-label={`Delete ${name}?`}>
          Delete {name}? Its passages{qa > 0 ? ` and ${plural(qa, 'reusable answer')}` : ''} leave the knowledge base; answers already written stay.
          <BusyButtons busy={props.deleting} label="Delete" busyLabel="Deleting…" onConfirm={props.onDelete} onCancel={props.onCancel} />
        </div>
      )}
    </li>
  );
}
