/**
 * The knowledge base: upload documents (picker or drag-and-drop) with tags and offerings picked by name,
 * watch them being processed, and, on a service that offers it (feature-detected through
 * `GET /extensions/`), delete a file or replace one by uploading a file of the same name.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ApiError } from '../../api/errors';
import {
  DOCUMENT_TYPES,
  EXTENSION,
  LIMITS,
  REPOSITORY_FILE_STATUSES,
  type DocumentType,
  type Offering,
  type RepositoryFile,
  type RepositoryListQuery,
  type RepositoryUploadFields,
} from '../../api/schemas';
import { ConnectFirst, ErrorMessage, Note } from '../components/Message';
import { Pager, SearchBox, Select, choicesOf, type Choice } from '../components/Controls';
import { ProgressBar } from '../components/Progress';
import { formatBytes } from '../eta';
import { isForbidden } from '../errors';
import type { TaskpaneApi } from '../types';

export interface LibraryPaneProps {
  client: TaskpaneApi | null;
  uploadBlocked: string | null;
  onUploadRefused: (e: ApiError) => void;
  onOpenSettings: () => void;
  /** Refresh interval while files are processing (ms). */
  pollMs: number;
  active: boolean;
  /** Grows when the saved settings are shown to work: an old failure is no longer true. */
  connectionEpoch?: number;
}

const PAGE_SIZE = 20;
const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1).replace(/_/g, ' ');

/** The spec's document types in words; `qna` and `q_a` are one thing to a person. */
const TYPE_LABELS: Record<DocumentType, string> = {
  questionnaire: 'Questionnaire',
  requirements_sheet: 'Requirements sheet',
  qna: 'Q&A',
  q_a: 'Q&A',
  security_questionnaire: 'Security questionnaire',
  security_certificate: 'Certificate or audit report',
  documentation: 'Documentation',
  data_extraction: 'Data extraction',
  template: 'Template',
  unknown: 'Type not known yet',
};
const FORMAT_LABELS: Record<string, string> = { excel: 'Excel', doc: 'Word', docx: 'Word', txt: 'Text', ppt: 'PowerPoint', pptx: 'PowerPoint' };
export const typeLabel = (t: string | undefined) => (t ? (TYPE_LABELS as Record<string, string>)[t] ?? capitalise(t) : '');
export const formatLabel = (f: string | undefined) => (f ? FORMAT_LABELS[f] ?? f.toUpperCase() : '');

const STATUS_CHOICES = choicesOf('Any status', REPOSITORY_FILE_STATUSES, capitalise);
const TYPE_CHOICES = choicesOf('Any type', DOCUMENT_TYPES.filter((t) => t !== 'q_a'), typeLabel);
const ORDERINGS: Choice<NonNullable<RepositoryListQuery['ordering']>>[] = [
  { value: '-created_at', label: 'Newest first' },
  { value: 'created_at', label: 'Oldest first' },
  { value: 'original_filename', label: 'Name A–Z' },
  { value: '-original_filename', label: 'Name Z–A' },
  { value: 'status', label: 'Status' },
  { value: 'file_format', label: 'Format' },
];

/** Tags typed as "soc2, policy": trimmed, empty ones dropped, each checked against the tag limit. */
export function parseTags(text: string): { tags: string[]; error: string | null } {
  const tags = [...new Set(text.split(',').map((t) => t.trim()).filter(Boolean))];
  const long = tags.find((t) => t.length > LIMITS.tagNameLength);
  return { tags, error: long ? `The tag "${long.slice(0, 20)}…" is longer than ${LIMITS.tagNameLength} characters.` : null };
}

const busyStatus = (f: RepositoryFile) => f.status === 'submitted' || f.status === 'processing';

interface UploadNote {
  kind: 'ok' | 'warn';
  count: number;
  /** The files uploaded, when the service names them: the note follows their processing. */
  ids: number[];
  /** What else happened (replaced, refused). */
  text: string;
}

/** The upload's note as its files stand now: processing, or how many became ready and how many failed. */
function uploadNoteText(note: UploadNote, files: readonly RepositoryFile[]): string {
  const uploaded = note.ids.map((id) => files.find((f) => f.id === id));
  const known = uploaded.every((f): f is RepositoryFile => !!f);
  const count = plural(note.count, 'file');
  let head = `Uploaded ${count}; processing has started.`;
  if (known && uploaded.length === note.count && note.count > 0 && !uploaded.some(busyStatus)) {
    const failed = uploaded.filter((f) => f.status === 'failed').length;
    head = failed === 0 ? `Uploaded ${count}: ${uploaded.length === 1 ? 'it is' : 'all are'} ready.` : `Uploaded ${count}: ${uploaded.length - failed} ready, ${failed} failed.`;
  }
  return note.text ? `${head}${note.text}` : head;
}
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const sameName = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'accent' }) === 0;

function FileRow(props: { file: RepositoryFile; canDelete: boolean; confirming: boolean; deleting: boolean; onAsk: () => void; onCancel: () => void; onDelete: () => void }) {
  const f = props.file;
  const name = f.original_filename ?? f.url ?? `file ${f.id}`;
  const percent = Math.max(0, Math.min(100, f.processing_percent ?? 0));
  const qa = f.qa_count ?? 0;
  return (
    <li>
      <div>
        <strong>{name}</strong>{' '}
        <span class={`qf-badge ${f.status === 'failed' ? 'qf-trust-low' : f.status === 'ready' ? 'qf-trust-high' : 'qf-muted'}`}>
          {f.status_display || capitalise(f.status)}
        </span>
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
        ]
          .filter(Boolean)
          .join(' · ')}
      </div>
      {busyStatus(f) && (
        <ProgressBar
          value={percent}
          max={100}
          label={`Processing ${f.original_filename ?? ''}`}
          text={`${f.processing_stage || (f.status === 'submitted' ? 'queued' : 'processing')}: ${percent}%`}
        />
      )}
      {f.status === 'failed' && (
        <div class="qf-msg qf-msg-error qf-small">Processing failed: {f.error || 'the service gave no reason.'}</div>
      )}
      {props.canDelete && !props.confirming && !busyStatus(f) && (
        <button type="button" class="qf-link qf-small" aria-label={`Delete ${name}`} onClick={props.onAsk}>
          Delete
        </button>
      )}
      {props.confirming && (
        <div class="qf-msg qf-msg-warn" role="alertdialog" aria-label={`Delete ${name}?`}>
          Delete {name}? Its passages{qa > 0 ? ` and ${plural(qa, 'reusable answer')}` : ''} leave the knowledge base; answers already
          written stay.
          <div class="qf-row">
            <button type="button" class="qf-btn" onClick={props.onDelete} disabled={props.deleting}>
              {props.deleting ? 'Deleting…' : 'Delete'}
            </button>
            <button type="button" class="qf-btn" onClick={props.onCancel} disabled={props.deleting}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </li>
  );
}

/**
 * The organisation's own names (extension "organisation.names"): a document about anyone else (a cloud
 * provider's SOC report, an auditor's opinion) is then labelled a third party's and never answers Yes for us.
 */
function OrganisationNames(props: { client: TaskpaneApi }) {
  const [text, setText] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const ctl = new AbortController();
    props.client
      .getOrganisationNames({ signal: ctl.signal })
      .then((r) => !ctl.signal.aborted && (setText(r.names.join(', ')), setSaved(null)))
      .catch((e) => !ctl.signal.aborted && setError(e));
    return () => ctl.abort();
  }, [props.client]);
  const save = async () => {
    setBusy(true);
    setError(null);
    setSaved(null);
    try {
      const r = await props.client.setOrganisationNames((text ?? '').split(',').map((n) => n.trim()).filter(Boolean));
      setText(r.names.join(', '));
      setSaved(r.names.length ? `Saved: ${r.names.join(', ')}.` : 'Saved: no names.');
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <details class="qf-more">
      <summary>Your organisation's names</summary>
      <label class="qf-field">
        <span>Organisation names (comma-separated)</span>
        <input class="qf-input" value={text ?? ''} disabled={text === null} placeholder="Your legal name, trading names" onInput={(e) => (setText(e.currentTarget.value), setSaved(null))} />
      </label>
      <p class="qf-small qf-muted">Documents about anyone else are labelled third party and never answer Yes for you.</p>
      <button type="button" class="qf-btn" onClick={() => void save()} disabled={busy || text === null}>
        Save names
      </button>
      <ErrorMessage error={error} />
      {saved && <Note kind="ok">{saved}</Note>}
    </details>
  );
}

/** What the service offers beyond v2, probed once per client; null while unknown or without the probe. */
interface Extensions {
  canDelete: boolean;
  listsOfferings: boolean;
  orgNames: boolean;
}

export function LibraryPane(props: LibraryPaneProps) {
  const { client } = props;
  const [picked, setPicked] = useState<File[]>([]);
  const [tagsText, setTagsText] = useState('');
  const [chosenOfferings, setChosenOfferings] = useState<readonly number[]>([]);
  const [companyScope, setCompanyScope] = useState(true);
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<unknown>(null);
  const [uploadNote, setUploadNote] = useState<UploadNote | null>(null);
  const [dragOver, setDragOver] = useState(false);
  /** Files of the library with the names of files about to be uploaded: replace them, keep both, or stop. */
  const [replaceAsk, setReplaceAsk] = useState<RepositoryFile[] | null>(null);

  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<(typeof REPOSITORY_FILE_STATUSES)[number] | ''>('');
  const [docType, setDocType] = useState<DocumentType | ''>('');
  const [ordering, setOrdering] = useState<NonNullable<RepositoryListQuery['ordering']>>('-created_at');
  const [page, setPage] = useState(1);
  const [list, setList] = useState<{ count: number; results: RepositoryFile[]; hasNext: boolean } | null>(null);
  const [listError, setListError] = useState<unknown>(null);
  const [reload, setReload] = useState(0);
  const [ext, setExt] = useState<Extensions | null>(null);
  /** Offerings the analyst picks by name: the service's list when it offers one, else those seen on library files. */
  const [offerings, setOfferings] = useState<readonly Offering[]>([]);
  const [confirmDelete, setConfirmDelete] = useState<number | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<unknown>(null);
  const [deleteNote, setDeleteNote] = useState<string | null>(null);
  /** A deleted file leaves the list at once, not at the next refresh (nobody can act on a file that is gone). */
  const forget = (ids: number[]) =>
    setList((l) => l && { ...l, count: l.count - l.results.filter((f) => ids.includes(f.id)).length, results: l.results.filter((f) => !ids.includes(f.id)) });
  const fileInput = useRef<HTMLInputElement>(null);
  const dropZone = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (props.connectionEpoch) {
      setUploadError(null);
      setDeleteError(null);
    }
  }, [props.connectionEpoch]);
  const addFilesRef = useRef<(files: FileList | File[] | null | undefined) => void>(() => {});

  const query: RepositoryListQuery = {
    page,
    page_size: PAGE_SIZE,
    ordering,
    ...(search.trim() ? { search: search.trim() } : {}),
    ...(status ? { status } : {}),
    ...(docType ? { document_type: docType } : {}),
  };
  const queryKey = JSON.stringify(query);

  const mergeOfferings = (seen: readonly Offering[]) =>
    setOfferings((known) => {
      const fresh = seen.filter((o, i) => !known.some((k) => k.id === o.id) && seen.findIndex((x) => x.id === o.id) === i);
      return fresh.length ? [...known, ...fresh].sort((a, b) => a.name.localeCompare(b.name)) : known;
    });

  // Which extensions this service has: a v2 service without them answers 404, and the pane hides them.
  useEffect(() => {
    setExt(null);
    if (!client || !props.active) return;
    const ctl = new AbortController();
    client
      .getExtensions({ signal: ctl.signal })
      .then((r) => {
        const has = (name: string) => r.extensions.includes(name);
        setExt({ canDelete: has(EXTENSION.repositoryDelete), listsOfferings: has(EXTENSION.offeringsList), orgNames: has(EXTENSION.organisationNames) });
        if (has(EXTENSION.offeringsList)) {
          return client.listOfferings({ signal: ctl.signal }).then((o) => !ctl.signal.aborted && mergeOfferings(o.results));
        }
        return undefined;
      })
      .catch(() => !ctl.signal.aborted && setExt({ canDelete: false, listsOfferings: false, orgNames: false }));
    return () => ctl.abort();
  }, [client, props.active, props.connectionEpoch]);

  useEffect(() => {
    if (!client || !props.active) return;
    const ctl = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async (first: boolean) => {
      try {
        const r = await client.listRepositoryFiles(query, { signal: ctl.signal });
        if (ctl.signal.aborted) return;
        setList({ count: r.count, results: r.results, hasNext: r.next !== null });
        setListError(null);
        mergeOfferings(r.results.flatMap((f) => f.relevant_offerings ?? []));
        if (r.results.some(busyStatus)) timer = setTimeout(() => void load(false), props.pollMs);
      } catch (e) {
        if (ctl.signal.aborted) return;
        // A list that could not be read is not an empty library (nor the last key's).
        if (first) setList(null);
        setListError(e);
        // Keep watching through a blip while files are still processing.
        if (!first) timer = setTimeout(() => void load(false), props.pollMs * 2);
      }
    };
    timer = setTimeout(() => void load(true), search ? 250 : 0);
    return () => {
      clearTimeout(timer);
      ctl.abort();
    };
  }, [client, props.active, queryKey, reload, props.pollMs]);

  const addFiles = (files: FileList | File[] | null | undefined) => {
    if (!files) return;
    const next = [...picked];
    for (const f of Array.from(files)) if (!next.some((p) => p.name === f.name && p.size === f.size)) next.push(f);
    setPicked(next);
    setUploadNote(null);
    setReplaceAsk(null);
  };

  addFilesRef.current = addFiles;

  // Listeners added directly: Preact derives event names from `on…` properties of the element, and
  // not every DOM (happy-dom) has `ondragover`; addEventListener works everywhere.
  useEffect(() => {
    const zone = dropZone.current;
    if (!zone) return;
    const over = (e: Event) => {
      e.preventDefault(); // allows dropping
      setDragOver(true);
    };
    const leave = () => setDragOver(false);
    const drop = (e: Event) => {
      e.preventDefault();
      setDragOver(false);
      addFilesRef.current((e as DragEvent).dataTransfer?.files);
    };
    zone.addEventListener('dragover', over);
    zone.addEventListener('dragleave', leave);
    zone.addEventListener('drop', drop);
    return () => {
      zone.removeEventListener('dragover', over);
      zone.removeEventListener('dragleave', leave);
      zone.removeEventListener('drop', drop);
    };
  }, []);

  /** Library files with the same names as the picked ones (the service's search, then exact names). */
  const sameNamed = async (api: TaskpaneApi): Promise<RepositoryFile[]> => {
    const found: RepositoryFile[] = [];
    for (const f of picked) {
      const r = await api.listRepositoryFiles({ search: f.name, page_size: LIMITS.pageSizeMax });
      for (const old of r.results) if (old.original_filename && sameName(old.original_filename, f.name) && !found.some((x) => x.id === old.id)) found.push(old);
    }
    return found;
  };

  /** `replace`: files to delete once the new ones are in (null: not decided yet, ask when names repeat). */
  const upload = async (replace: RepositoryFile[] | null) => {
    if (!client || picked.length === 0) return;
    const tags = parseTags(tagsText);
    if (tags.error) {
      setUploadError(tags.error);
      return;
    }
    setUploading(true);
    setUploadError(null);
    setUploadNote(null);
    setReplaceAsk(null);
    try {
      if (replace === null && ext?.canDelete) {
        const existing = await sameNamed(client);
        if (existing.length > 0) {
          setReplaceAsk(existing);
          return;
        }
      }
      const fields: RepositoryUploadFields = {
        scope_includes_company: companyScope,
        ...(tags.tags.length ? { tags: tags.tags } : {}),
        ...(chosenOfferings.length ? { relevant_offerings: [...chosenOfferings] } : {}),
      };
      const result = await client.uploadRepositoryFiles(
        picked.map((f) => ({ name: f.name, data: f, ...(f.type ? { type: f.type } : {}) })),
        fields,
      );
      const failed = result.failed ?? [];
      // The new copies are in: only now do the old ones go, so a failed upload never loses a file.
      const replaced: string[] = [];
      const notReplaced: string[] = [];
      for (const old of replace ?? []) {
        try {
          await client.deleteRepositoryFile(old.id);
          forget([old.id]);
          replaced.push(old.original_filename ?? `file ${old.id}`);
        } catch (e) {
          notReplaced.push(`${old.original_filename ?? `file ${old.id}`} (${e instanceof Error ? e.message : String(e)})`);
        }
      }
      setUploadNote({
        kind: failed.length || notReplaced.length ? 'warn' : 'ok',
        count: result.count,
        // Our service names the new files (an extension): the note then follows them to ready.
        ids: Array.isArray(result.file_ids) ? result.file_ids.filter((id): id is number => Number.isInteger(id)) : [],
        text:
          (replaced.length ? ` Replaced ${replaced.join(', ')}: the old ${replaced.length === 1 ? 'copy is' : 'copies are'} removed.` : '') +
          (notReplaced.length ? ` The old copy was kept for ${notReplaced.join('; ')}.` : '') +
          (failed.length ? ` Not accepted: ${failed.join('; ')}.` : ''),
      });
      setPicked([]);
      if (fileInput.current) fileInput.current.value = '';
      setPage(1);
      setReload((n) => n + 1);
    } catch (e) {
      if (isForbidden(e)) props.onUploadRefused(e);
      setUploadError(e);
    } finally {
      setUploading(false);
    }
  };

  const remove = async (file: RepositoryFile) => {
    if (!client) return;
    setDeleting(true);
    setDeleteError(null);
    setDeleteNote(null);
    try {
      await client.deleteRepositoryFile(file.id);
      forget([file.id]);
      setDeleteNote(`Deleted ${file.original_filename ?? `file ${file.id}`}.`);
      setConfirmDelete(null);
      setReload((n) => n + 1);
    } catch (e) {
      setDeleteError(e);
    } finally {
      setDeleting(false);
    }
  };

  const uploadDisabled = !client || uploading || picked.length === 0 || !!props.uploadBlocked;
  const toggleOffering = (id: number, on: boolean) =>
    setChosenOfferings((ids) => (on ? [...ids.filter((x) => x !== id), id] : ids.filter((x) => x !== id)));

  return (
    <div>
      <h2>Library</h2>
      {!client && <ConnectFirst onOpenSettings={props.onOpenSettings} />}
      <section aria-label="Upload documents" class="qf-card">
        <div class="qf-drop" data-over={dragOver} ref={dropZone}>
          <p>Drop documents here, or</p>
          <label class="qf-btn" style={{ display: 'inline-block' }}>
            Choose files…
            <input
              ref={fileInput}
              class="qf-sr"
              type="file"
              multiple
              aria-label="Choose files to upload"
              onChange={(e) => addFiles(e.currentTarget.files)}
            />
          </label>
        </div>
        {picked.length > 0 && (
          <ul class="qf-small" aria-label="Files to upload">
            {picked.map((f) => (
              <li key={`${f.name}:${f.size}`}>
                {f.name} ({formatBytes(f.size)}){' '}
                <button type="button" class="qf-link" aria-label={`Remove ${f.name}`} onClick={() => (setPicked(picked.filter((p) => p !== f)), setReplaceAsk(null))}>
                  remove
                </button>
              </li>
            ))}
          </ul>
        )}
        <details class="qf-more" open={!!(tagsText || chosenOfferings.length || !companyScope)}>
          <summary>Tags, offerings and scope (optional)</summary>
          <label class="qf-field">
            <span>Tags (comma-separated)</span>
            <input class="qf-input" value={tagsText} onInput={(e) => setTagsText(e.currentTarget.value)} placeholder="soc2, policy" />
          </label>
          <fieldset class="qf-fieldset">
            <legend>Offerings</legend>
            {offerings.map((o) => (
              <label key={o.id} class="qf-check">
                <input type="checkbox" checked={chosenOfferings.includes(o.id)} onChange={(e) => toggleOffering(o.id, e.currentTarget.checked)} />
                <span>
                  {o.name} <span class="qf-muted qf-small">({o.type})</span>
                </span>
              </label>
            ))}
            {offerings.length === 0 && (
              <p class="qf-muted qf-small">
                {ext?.listsOfferings ? 'None yet (qfill offerings create).' : 'Offerings appear here once a library file names one.'}
              </p>
            )}
          </fieldset>
          <label class="qf-check">
            <input type="checkbox" checked={companyScope} onChange={(e) => setCompanyScope(e.currentTarget.checked)} />
            <span>Applies to the company as a whole</span>
          </label>
        </details>
        <button type="button" class="qf-btn qf-btn-primary" onClick={() => void upload(null)} disabled={uploadDisabled || replaceAsk !== null}>
          {uploading ? 'Uploading…' : `Upload${picked.length ? ` ${plural(picked.length, 'file')}` : ''}`}
        </button>
        {replaceAsk && (
          <div class="qf-msg qf-msg-warn" role="alertdialog" aria-label="Replace files with the same name?">
            Already in the library: {replaceAsk.map((f) => f.original_filename).join(', ')}. Replace removes the old copies and what was
            learnt from them once the new upload is in.
            <div class="qf-row">
              <button type="button" class="qf-btn qf-btn-primary" onClick={() => void upload(replaceAsk)}>
                Replace
              </button>
              <button type="button" class="qf-btn" onClick={() => void upload([])}>
                Keep both
              </button>
              <button type="button" class="qf-btn" onClick={() => setReplaceAsk(null)}>
                Cancel
              </button>
            </div>
          </div>
        )}
        {props.uploadBlocked && <Note kind="warn">{props.uploadBlocked}</Note>}
        <ErrorMessage error={uploadError} />
        {uploadNote && <Note kind={uploadNote.kind}>{uploadNoteText(uploadNote, list?.results ?? [])}</Note>}
      </section>

      {client && ext?.orgNames && <OrganisationNames client={client} />}
      <div role="search" aria-label="Find files">
        <SearchBox
          label="Search files"
          placeholder="Search by name or tag"
          value={search}
          onChange={(text) => (setSearch(text), setPage(1))}
        />
        <div class="qf-filters">
          <Select label="Filter by status" value={status} choices={STATUS_CHOICES} onChange={(v) => (setStatus(v), setPage(1))} />
          <Select label="Filter by type" value={docType} choices={TYPE_CHOICES} onChange={(v) => (setDocType(v), setPage(1))} />
          <Select label="Sort" value={ordering} choices={ORDERINGS} onChange={setOrdering} />
        </div>
      </div>
      <section aria-label="Library files">
        <ErrorMessage error={listError} />
        <ErrorMessage error={deleteError} onDismiss={() => setDeleteError(null)} />
        {deleteNote && <Note kind="ok">{deleteNote}</Note>}
        {list && (
          <p class="qf-small qf-muted" role="status">
            {plural(list.count, 'file')}
          </p>
        )}
        {list && list.results.length === 0 && (
          <p class="qf-muted">
            {search || status || docType
              ? 'No files match these filters.'
              : 'No documents yet. Upload your policies, security overviews and past questionnaires above: Fill and Chat answer only from them.'}
          </p>
        )}
        <ul class="qf-list" aria-label="Files">
          {list?.results.map((f) => (
            <FileRow
              key={f.id}
              file={f}
              canDelete={!!ext?.canDelete && !props.uploadBlocked}
              confirming={confirmDelete === f.id}
              deleting={deleting}
              onAsk={() => (setConfirmDelete(f.id), setDeleteNote(null))}
              onCancel={() => setConfirmDelete(null)}
              onDelete={() => void remove(f)}
            />
          ))}
        </ul>
        {list && <Pager page={page} count={list.count} pageSize={PAGE_SIZE} hasNext={list.hasNext} onPage={setPage} />}
      </section>
    </div>
  );
}
