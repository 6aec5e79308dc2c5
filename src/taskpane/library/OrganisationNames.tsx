import { useEffect, useState } from 'preact/hooks';
import { ErrorMessage, Note } from '../components/Message';
import type { TaskpaneApi } from '../types';

/**
 * The organisation's own names (extension "organisation.names"): a document about anyone else (a cloud
 * provider's SOC report, an auditor's opinion) is then labelled a third party's and never answers Yes for us.
 */
export function OrganisationNames(props: { client: TaskpaneApi }) {
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
      const r = await props.client.setOrganisationNames(
        (text ?? '')
          .split(',')
          .map((n) => n.trim())
          .filter(Boolean),
      );
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
        <input
          class="qf-input"
          value={text ?? ''}
          disabled={text === null}
          placeholder="Your legal name, trading names"
          onInput={(e) => (setText(e.currentTarget.value), setSaved(null))}
        />
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
