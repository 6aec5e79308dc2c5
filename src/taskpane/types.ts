/**
 * What the task pane receives from outside. Everything Office-, network- or storage-shaped comes in as a
 * prop so every pane renders and tests without Excel (the Office-Addin-TaskPane-React pattern).
 */
import type { ApiClient } from '../api/client';
import type { RetryNotice } from '../api/http';
import type { WorkbookAdapter } from '../excel/types';
import type { StorageLike } from '../excel/undo-store';

/**
 * The part of `ApiClient` (src/api/client.ts) the task pane calls: the panes depend on these methods,
 * not on the class, so tests may hand in the real client or anything with the same methods.
 */
export type TaskpaneApi = Pick<
  ApiClient,
  | 'ask'
  | 'listSessions'
  | 'createSession'
  | 'getSession'
  | 'sendMessage'
  | 'uploadQuestionnaires'
  | 'getQuestionnaire'
  | 'getAnswers'
  | 'getStructure'
  | 'listRepositoryFiles'
  | 'uploadRepositoryFiles'
  | 'pollAnswerProgress'
  | 'getExtensions'
  | 'getCurrentKey'
  | 'deleteRepositoryFile'
  | 'listOfferings'
  | 'getOrganisationNames'
  | 'setOrganisationNames'
  | 'extensionTransport'
>;

/** Where the service is and how to prove who we are. */
export interface ConnectionSettings {
  baseUrl: string;
  apiKey: string;
}

/** How long the key is kept: in (partitioned) localStorage, or in memory for this session only. */
export type KeyPersistence = 'remember' | 'session';

export interface Settings extends ConnectionSettings {
  keyPersistence: KeyPersistence;
}

/** The subset of the Web Storage API the pane uses (Office hands in a partitioned localStorage): src/excel's one definition. */
export type { StorageLike };

/** Colours follow Office's theme when Office gives one, else the system's light/dark preference. */
export interface Theme {
  dark: boolean;
  /** Office's theme family: White and the system's light are 'light'; Dark Gray and Black are 'dark'. */
  kind?: 'light' | 'dark' | 'colorful';
  /** Office's own colours (Office.context.officeTheme), applied as CSS variables when present. */
  colors?: {
    background?: string;
    foreground?: string;
    controlBackground?: string;
    controlForeground?: string;
  };
}

export type TabId = 'fill' | 'chat' | 'library' | 'settings';

/** What the pane wants to hear from a client while it works. */
export interface ClientHooks {
  /** Before the client repeats a call by itself (429 with Retry-After, a network fault): the pane says so. */
  onRetry?: (notice: RetryNotice) => void;
}

export interface AppProps {
  /** Builds an API client for these settings; may throw an ApiError for a bad base URL. */
  createClient: (settings: ConnectionSettings, hooks?: ClientHooks) => TaskpaneApi;
  workbook: WorkbookAdapter;
  storage: StorageLike;
  theme: Theme;
  /** Base URL offered when none is saved: the page's own origin, i.e. the local service. */
  defaultBaseUrl: string;
  /** How often the library refreshes while files are processing (ms). Default 2000. */
  libraryPollMs?: number;
  /** How long answer generation may show no progress before the Fill pane says so (ms). Default 3 minutes. */
  stallMs?: number;
  /** The tab shown first when a key is configured. Default 'fill'. */
  initialTab?: TabId;
}
