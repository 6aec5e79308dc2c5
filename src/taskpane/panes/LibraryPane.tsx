/**
 * The knowledge base: upload documents (picker or drag-and-drop) with tags and offerings picked by name,
 * watch them being processed, and, on a service that offers it (feature-detected through
 * `GET /extensions/`), delete a file or replace one by uploading a file of the same name. The state and
 * its rules live in the controller (src/taskpane/library/controller.ts); this renders them. Where the
 * service keeps an answer library ("answers.library"), a second view, Answers, is loaded on demand.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ApiError } from '../../api/errors';
import { loadAnswersView, type AnswersModule } from '../answers/load';
import { ConnectFirst, ErrorMessage } from '../components/Message';
import { createLibraryController } from '../library/controller';
import { FilesList } from '../library/FilesList';
import { OrganisationNames } from '../library/OrganisationNames';
import { UploadCard } from '../library/UploadCard';
import type { TaskpaneApi } from '../types';
import { useStore } from '../use-store';

export { parseTags } from '../library/state';
export { formatLabel, typeLabel } from '../library/labels';

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

export function LibraryPane(props: LibraryPaneProps) {
  const { client, active, pollMs, connectionEpoch } = props;
  const refused = useRef(props.onUploadRefused);
  refused.current = props.onUploadRefused;
  const controller = useMemo(() => createLibraryController({ onUploadRefused: (e) => refused.current(e) }), []);
  useEffect(() => () => controller.dispose(), [controller]);
  const state = useStore(controller);
  useEffect(
    () => controller.setInputs({ client, active, pollMs, ...(connectionEpoch !== undefined ? { connectionEpoch } : {}) }),
    [controller, client, active, pollMs, connectionEpoch],
  );

  const [view, setView] = useState<'files' | 'answers'>('files');
  const answers = useAnswersView(view === 'answers');
  const showAnswers = !!client && !!state.ext?.answers && view === 'answers';

  return (
    <div>
      <h2>Library</h2>
      {!client && <ConnectFirst onOpenSettings={props.onOpenSettings} />}
      {client && state.ext?.answers && (
        <div class="qf-row" role="group" aria-label="Library view">
          <button type="button" class={view === 'files' ? 'qf-btn qf-btn-primary' : 'qf-btn'} aria-pressed={view === 'files'} onClick={() => setView('files')}>
            Files
          </button>
          <button
            type="button"
            class={view === 'answers' ? 'qf-btn qf-btn-primary' : 'qf-btn'}
            aria-pressed={view === 'answers'}
            onClick={() => setView('answers')}
          >
            Answers
          </button>
        </div>
      )}
      {showAnswers ? (
        answers.module ? (
          <answers.module.AnswersView client={client} offerings={state.offerings} active={active} ext={state.ext!} />
        ) : (
          <>
            {!answers.error && <p class="qf-muted">Loading the answer library…</p>}
            <ErrorMessage error={answers.error} />
          </>
        )
      ) : (
        <>
          <UploadCard controller={controller} state={state} canUpload={!!client} uploadBlocked={props.uploadBlocked} />
          {client && state.ext?.orgNames && <OrganisationNames client={client} />}
          <FilesList controller={controller} state={state} uploadBlocked={props.uploadBlocked} />
        </>
      )}
    </div>
  );
}

/** The Answers view's code, fetched the first time it is wanted. */
function useAnswersView(wanted: boolean): { module: AnswersModule | null; error: unknown } {
  const [module, setModule] = useState<AnswersModule | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (!wanted || module) return;
    let gone = false;
    setError(null);
    loadAnswersView().then(
      (m) => gone || setModule(m),
      (e: unknown) => gone || setError(e),
    );
    return () => void (gone = true);
  }, [wanted, module]);
  return { module, error };
}
