/** The library's files: search, filters and order, the paged list with each file's state and Delete. */
import { DOCUMENT_TYPES, REPOSITORY_FILE_STATUSES } from '../../api/schemas';
import { Pager, SearchBox, Select, choicesOf, type Choice } from '../components/Controls';
import { ErrorMessage, Note } from '../components/Message';
import type { LibraryController } from './controller';
import { PAGE_SIZE, plural, type LibraryState, type Ordering } from './state';
import { FileRow } from './FileRow';
import { capitalise, typeLabel } from './labels';

const STATUS_CHOICES = choicesOf('Any status', REPOSITORY_FILE_STATUSES, capitalise);
const TYPE_CHOICES = choicesOf(
  'Any type',
  DOCUMENT_TYPES.filter((t) => t !== 'q_a'),
  typeLabel,
);
const ORDERINGS: Choice<Ordering>[] = [
  { value: '-created_at', label: 'Newest first' },
  { value: 'created_at', label: 'Oldest first' },
  { value: 'original_filename', label: 'Name A–Z' },
  { value: '-original_filename', label: 'Name Z–A' },
  { value: 'status', label: 'Status' },
  { value: 'file_format', label: 'Format' },
];

export function FilesList(props: { controller: LibraryController; state: LibraryState; uploadBlocked: string | null }) {
  const { controller: c, state: s } = props;
  return (
    <>
      <div role="search" aria-label="Find files">
        <SearchBox label="Search files" placeholder="Search by name or tag" value={s.search} onChange={c.setSearch} />
        <div class="qf-filters">
          <Select label="Filter by status" value={s.status} choices={STATUS_CHOICES} onChange={c.setStatus} />
          <Select label="Filter by type" value={s.docType} choices={TYPE_CHOICES} onChange={c.setDocType} />
          <Select label="Sort" value={s.ordering} choices={ORDERINGS} onChange={c.setOrdering} />
        </div>
      </div>
      <section aria-label="Library files">
        <ErrorMessage error={s.listError} />
        <ErrorMessage error={s.deleteError} onDismiss={c.dismissDeleteError} />
        {s.deleteNote && <Note kind="ok">{s.deleteNote}</Note>}
        {s.list && (
          <p class="qf-small qf-muted" role="status">
            {plural(s.list.count, 'file')}
          </p>
        )}
        {s.list && s.list.results.length === 0 && (
          <p class="qf-muted">
            {s.search || s.status || s.docType
              ? 'No files match these filters.'
              : 'No documents yet. Upload your policies, security overviews and past questionnaires above: Fill and Chat answer only from them.'}
          </p>
        )}
        <ul class="qf-list" aria-label="Files">
          {s.list?.results.map((f) => (
            <FileRow
              key={f.id}
              file={f}
              canDelete={!!s.ext?.canDelete && !props.uploadBlocked}
              confirming={s.confirmDelete === f.id}
              deleting={s.deleting}
              onAsk={() => c.askDelete(f.id)}
              onCancel={c.cancelDelete}
              onDelete={() => void c.remove(f)}
            />
          ))}
        </ul>
        {s.list && <Pager page={s.page} count={s.list.count} pageSize={PAGE_SIZE} hasNext={s.list.hasNext} onPage={c.setPage} />}
      </section>
    </>
  );
}
