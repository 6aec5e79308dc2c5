/** An empty library can answer nothing: the Fill pane says so before the analyst fills. */
import { Note } from '../components/Message';
import { libraryHint, type LibraryCounts } from './view';

export function LibraryHint(props: { library: LibraryCounts | null; onOpenLibrary: () => void }) {
  const text = libraryHint(props.library);
  if (!text) return null;
  return (
    <Note kind="warn">
      {text}{' '}
      <button type="button" class="qf-link" onClick={props.onOpenLibrary}>
        Open Library
      </button>
    </Note>
  );
}
