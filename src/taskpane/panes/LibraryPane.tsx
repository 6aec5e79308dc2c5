/**
 * The knowledge base: upload documents (picker or drag-and-drop) with tags and offerings, and watch
 * them being processed. The list refreshes itself while any file is submitted or processing.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ApiError } from '../../api/errors';
import {
  DOCUMENT_TYPES,
  LIMITS,
  REPOSITORY_FILE_STATUSES,
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
const STATUS_CHOICES = choicesOf('Any status', REPOSITORY_FILE_STATUSES, capitalise);
const TYPE_CHOICES = choicesOf('Any type', DOCUMENT_TYPES, capitalise);
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

/** Offering ids typed as "3, 7": positive whole numbers only. */
export function parseOfferings(text: string): { ids: number[]; error: string | null } {
  const parts = text.split(',').map((t) => t.trim()).filter(Boolean);
  const bad = parts.find((p) => !/^\d+$/.test(p) || Number(p) <= 0);
  if (bad) return { ids: [], error: `Offering ids are positive whole numbers separated by commas; "${bad}" is not one.` };
  return { ids: [...new Set(parts.map(Number))], error: null };
}

/** The offering ids text with `id` added or removed; other entries, even invalid ones, stay as typed. */
export function toggleOfferingId(text: string, id: number, on: boolean): string {
  const parts = text.split(',').map((t) => t.trim()).filter(Boolean);
  const rest = parts.filter((p) => p !== String(id));
  return (on ? [...rest, String(id)] : rest).join(', ');
}

const busyStatus = (f: RepositoryFile) => f.status === 'submitted' || f.status === 'processing';

function FileRow(props: { file: RepositoryFile }) {
  const f = props.file;
  const percent = Math.max(0, Math.min(100, f.processing_percent ?? 0));
  return (
    <li>
      <div>
        <strong>{f.original_filename ?? f.url ?? `file ${f.id}`}</strong>{' '}
        <span class={`qf-badge ${f.status === 'failed' ? 'qf-trust-low' : f.status === 'ready' ? 'qf-trust-high' : 'qf-muted'}`}>
          {f.status_display || f.status}
        </span>
      </div>
      <div class="qf-small qf-muted">
        {[f.document_type, f.file_format, f.processing_stage, f.passage_count ? `${f.passage_count} passages` : '', ...(f.tags ?? []).map((t) => `#${t.name}`)]
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
    </li>
  );
}

export function LibraryPane(props: LibraryPaneProps) {
  const { client } = props;
  const [picked, setPicked] = useState<File[]>([]);
  const [tagsText, setTagsText] = useState('');
  const [offeringsText, setOfferingsText] = useState('');
  const [companyScope, setCompanyScope] = useState(true);
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<unknown>(null);
  const [uploadNote, setUploadNote] = useState<string | null>(null);
  const [dragOver, setDragOver] = useState(false);

  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<(typeof REPOSITORY_FILE_STATUSES)[number] | ''>('');
  const [docType, setDocType] = useState<(typeof DOCUMENT_TYPES)[number] | ''>('');
  const [ordering, setOrdering] = useState<NonNullable<RepositoryListQuery['ordering']>>('-created_at');
  const [page, setPage] = useState(1);
  const [list, setList] = useState<{ count: number; results: RepositoryFile[]; hasNext: boolean } | null>(null);
  const [listError, setListError] = useState<unknown>(null);
  const [reload, setReload] = useState(0);
  /** Offerings seen on library files: the analyst picks these by name instead of knowing their ids. */
  const [knownOfferings, setKnownOfferings] = useState<readonly Offering[]>([]);
  const fileInput = useRef<HTMLInputElement>(null);
  const dropZone = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (props.connectionEpoch) setUploadError(null);
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
        const seen = r.results.flatMap((f) => f.relevant_offerings ?? []);
        setKnownOfferings((known) => {
          const fresh = seen.filter((o, i) => !known.some((k) => k.id === o.id) && seen.findIndex((x) => x.id === o.id) === i);
          return fresh.length ? [...known, ...fresh].sort((a, b) => a.name.localeCompare(b.name)) : known;
        });
        if (r.results.some(busyStatus)) timer = setTimeout(() => void load(false), props.pollMs);
      } catch (e) {
        if (ctl.signal.aborted) return;
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

  const upload = async () => {
    if (!client || picked.length === 0) return;
    const tags = parseTags(tagsText);
    const offerings = parseOfferings(offeringsText);
    if (tags.error || offerings.error) {
      setUploadError(tags.error ?? offerings.error);
      return;
    }
    setUploading(true);
    setUploadError(null);
    setUploadNote(null);
    const fields: RepositoryUploadFields = {
      scope_includes_company: companyScope,
      ...(tags.tags.length ? { tags: tags.tags } : {}),
      ...(offerings.ids.length ? { relevant_offerings: offerings.ids } : {}),
    };
    try {
      const result = await client.uploadRepositoryFiles(
        picked.map((f) => ({ name: f.name, data: f, ...(f.type ? { type: f.type } : {}) })),
        fields,
      );
      const failed = result.failed ?? [];
      setUploadNote(
        `Uploaded ${result.count} file${result.count === 1 ? '' : 's'}; processing has started.` +
          (failed.length ? ` Not accepted: ${failed.join('; ')}.` : ''),
      );
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

  const uploadDisabled = !client || uploading || picked.length === 0 || !!props.uploadBlocked;

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
                <button type="button" class="qf-link" aria-label={`Remove ${f.name}`} onClick={() => setPicked(picked.filter((p) => p !== f))}>
                  remove
                </button>
              </li>
            ))}
          </ul>
        )}
        <details class="qf-more" open={!!(tagsText || offeringsText || !companyScope)}>
          <summary>Tags, offerings and scope (optional)</summary>
          <label class="qf-field">
            <span>Tags (comma-separated)</span>
            <input class="qf-input" value={tagsText} onInput={(e) => setTagsText(e.currentTarget.value)} placeholder="soc2, policy" />
          </label>
          {knownOfferings.length > 0 && (
            <fieldset class="qf-fieldset">
              <legend>Offerings</legend>
              {knownOfferings.map((o) => (
                <label key={o.id} class="qf-check">
                  <input
                    type="checkbox"
                    checked={parseOfferings(offeringsText).ids.includes(o.id)}
                    onChange={(e) => setOfferingsText(toggleOfferingId(offeringsText, o.id, e.currentTarget.checked))}
                  />
                  <span>
                    {o.name} <span class="qf-muted qf-small">({o.type}, id {o.id})</span>
                  </span>
                </label>
              ))}
            </fieldset>
          )}
          <label class="qf-field">
            <span>Offering ids (comma-separated)</span>
            <input class="qf-input" value={offeringsText} inputMode="numeric" onInput={(e) => setOfferingsText(e.currentTarget.value)} placeholder="e.g. 3, 7" />
          </label>
          <label class="qf-check">
            <input type="checkbox" checked={companyScope} onChange={(e) => setCompanyScope(e.currentTarget.checked)} />
            <span>Applies to the company as a whole</span>
          </label>
        </details>
        <button type="button" class="qf-btn qf-btn-primary" onClick={upload} disabled={uploadDisabled}>
          {uploading ? 'Uploading…' : `Upload${picked.length ? ` ${picked.length} file${picked.length === 1 ? '' : 's'}` : ''}`}
        </button>
        {props.uploadBlocked && <Note kind="warn">{props.uploadBlocked}</Note>}
        <ErrorMessage error={uploadError} />
        {uploadNote && <Note kind="ok">{uploadNote}</Note>}
      </section>

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
        {list && (
          <p class="qf-small qf-muted" role="status">
            {list.count} file{list.count === 1 ? '' : 's'}
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
          {list?.results.map((f) => <FileRow key={f.id} file={f} />)}
        </ul>
        {list && <Pager page={page} count={list.count} pageSize={PAGE_SIZE} hasNext={list.hasNext} onPage={setPage} />}
      </section>
    </div>
  );
}
