/** The task pane's connection: the API client for the saved settings, the notice while it retries, and a refused upload. */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ApiError } from '../../api/errors';
import type { RetryNotice } from '../../api/http';
import { explainRetry } from '../errors';
import type { SettingsStore } from '../settings-store';
import type { AppProps, Settings, TaskpaneApi } from '../types';
import { clearUploadBlock, judgeUploadRefusal, readUploadBlock, writeUploadBlock, type UploadBlock } from './upload-block';

/** The words shown while the client waits to repeat a call, gone once the wait is over. */
export function useRetryNotice(): [string | null, (n: RetryNotice) => void] {
  const [retrying, setRetrying] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const onRetry = (n: RetryNotice) => {
    clearTimeout(timer.current);
    setRetrying(explainRetry(n));
    timer.current = setTimeout(() => setRetrying(null), n.delayMs + 500);
  };
  return [retrying, onRetry];
}

/** A client for the saved address and key; none without a key, and the error when the settings cannot make one. */
export function useClient(settings: Settings, createClient: AppProps['createClient'], onRetry: (n: RetryNotice) => void) {
  return useMemo((): { client: TaskpaneApi | null; clientError: unknown } => {
    if (!settings.apiKey) return { client: null, clientError: null };
    try {
      return { client: createClient({ baseUrl: settings.baseUrl, apiKey: settings.apiKey }, { onRetry }), clientError: null };
    } catch (e) {
      return { client: null, clientError: e };
    }
  }, [settings.baseUrl, settings.apiKey, createClient]);
}

/** Whether uploads are blocked for the saved key, and why; kept in storage per key. */
export function useUploadBlock(storage: AppProps['storage'], settings: Settings, store: SettingsStore, client: TaskpaneApi | null) {
  const [block, setBlock] = useState<UploadBlock | null>(() => readUploadBlock(storage, settings.apiKey));
  const allow = () => {
    setBlock(null);
    clearUploadBlock(storage);
  };
  return {
    block,
    /** The saved key changed: its own block (if any) applies. */
    reload: (apiKey: string) => setBlock(readUploadBlock(storage, apiKey)),
    allow,
    /** An upload was refused: judged, then remembered, unless the key changed meanwhile (the verdict is about the old one). */
    async refused(e: ApiError): Promise<void> {
      const apiKey = settings.apiKey;
      const next = await judgeUploadRefusal(client, e);
      if (store.load().apiKey !== apiKey) return;
      setBlock(next);
      writeUploadBlock(storage, apiKey, next);
    },
    /** The saved settings just worked: a key that "did not work" does. */
    connectionOk: () => {
      if (block?.kind === 'invalid') allow();
    },
  };
}
