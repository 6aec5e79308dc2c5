/** Upload documents: pick or drop files, optional tags, offerings and scope, and the replace question when names repeat. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorMessage, Note } from '../components/Message';
import { formatBytes } from '../eta';
import type { LibraryController } from './controller';
import { plural, uploadNoteText, type LibraryState } from './state';

export function UploadCard(props: { controller: LibraryController; state: LibraryState; canUpload: boolean; uploadBlocked: string | null }) {
  const { controller: c, state: s } = props;
  const [dragOver, setDragOver] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const dropZone = useRef<HTMLDivElement>(null);

  // A finished upload empties the picked list: the input's own selection goes with it.
  useEffect(() => {
    if (s.picked.length === 0 && fileInput.current) fileInput.current.value = '';
  }, [s.picked.length]);

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
      c.addFiles((e as DragEvent).dataTransfer?.files);
    };
    zone.addEventListener('dragover', over);
    zone.addEventListener('dragleave', leave);
    zone.addEventListener('drop', drop);
    return () => {
      zone.removeEventListener('dragover', over);
      zone.removeEventListener('dragleave', leave);
      zone.removeEventListener('drop', drop);
    };
  }, [c]);

  const uploadDisabled = !props.canUpload || s.uploading || s.picked.length === 0 || !!props.uploadBlocked;
  return (
    <section aria-label="Upload documents" class="qf-card">
      <div class="qf-drop" data-over={dragOver} ref={dropZone}>
        <p>Drop documents here, or</p>
        <label class="qf-btn" style={{ display: 'inline-block' }}>
          Choose files…
          <input ref={fileInput} class="qf-sr" type="file" multiple aria-label="Choose files to upload" onChange={(e) => c.addFiles(e.currentTarget.files)} />
        </label>
      </div>
      {s.picked.length > 0 && (
        <ul class="qf-small" aria-label="Files to upload">
          {s.picked.map((f) => (
            <li key={`${f.name}:${f.size}`}>
              {f.name} ({formatBytes(f.size)}){' '}
              <button type="button" class="qf-link" aria-label={`Remove ${f.name}`} onClick={() => c.removePicked(f)}>
                remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <details class="qf-more" open={!!(s.tagsText || s.chosenOfferings.length || !s.companyScope)}>
        <summary>Tags, offerings and scope (optional)</summary>
        <label class="qf-field">
          <span>Tags (comma-separated)</span>
          <input class="qf-input" value={s.tagsText} onInput={(e) => c.setTagsText(e.currentTarget.value)} placeholder="soc2, policy" />
        </label>
        <fieldset class="qf-fieldset">
          <legend>Offerings</legend>
          {s.offerings.map((o) => (
            <label key={o.id} class="qf-check">
              <input type="checkbox" checked={s.chosenOfferings.includes(o.id)} onChange={(e) => c.toggleOffering(o.id, e.currentTarget.checked)} />
              <span>
                {o.name} <span class="qf-muted qf-small">({o.type})</span>
              </span>
            </label>
          ))}
          {s.offerings.length === 0 && (
            <p class="qf-muted qf-small">
              {s.ext?.listsOfferings ? 'None yet (qfill offerings create).' : 'Offerings appear here once a library file names one.'}
            </p>
          )}
        </fieldset>
        <label class="qf-check">
          <input type="checkbox" checked={s.companyScope} onChange={(e) => c.setCompanyScope(e.currentTarget.checked)} />
          <span>Applies to the company as a whole</span>
        </label>
      </details>
      <button type="button" class="qf-btn qf-btn-primary" onClick={() => void c.upload(null)} disabled={uploadDisabled || s.replaceAsk !== null}>
        {s.uploading ? 'Uploading…' : `Upload${s.picked.length ? ` ${plural(s.picked.length, 'file')}` : ''}`}
      </button>
      {s.replaceAsk && (
        <div class="qf-msg qf-msg-warn" role="alertdialog" aria-label="Replace files with the same name?">
          Already in the library: {s.replaceAsk.map((f) => f.original_filename).join(', ')}. Replace removes the old copies and what was learnt from them once
          the new upload is in.
          <div class="qf-row">
            <button type="button" class="qf-btn qf-btn-primary" onClick={() => void c.upload(s.replaceAsk)}>
              Replace
            </button>
            <button type="button" class="qf-btn" onClick={() => void c.upload([])}>
              Keep both
            </button>
            <button type="button" class="qf-btn" onClick={c.cancelReplace}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {props.uploadBlocked && <Note kind="warn">{props.uploadBlocked}</Note>}
      <ErrorMessage error={s.uploadError} />
      {s.uploadNote && <Note kind={s.uploadNote.kind}>{uploadNoteText(s.uploadNote, s.list?.results ?? [])}</Note>}
    </section>
  );
}
