/**
 * What the task pane receives from outside. Everything Office-, network- or storage-shaped comes in as a
 * prop so every pane renders and tests without Excel (the Office-Addin-TaskPane-React pattern).
 */
import type {
  AnswersQuery,
  AskRequest,
  AskResponse,
  ChatSession,
  CreateSessionRequest,
  Paginated,
  Progress,
  QuestionWithAnswers,
  QuestionnaireUploadFields,
  QuestionnaireUploadResult,
  RepositoryFile,
  RepositoryListQuery,
  RepositoryUploadFields,
  RepositoryUploadResult,
  SendMessageRequest,
  SessionListQuery,
  Structure,
} from '../api/schemas';
import type { WorkbookAdapter } from '../excel/types';

export type UploadFile = { name: string; data: Blob | Uint8Array; type?: string };

/**
 * The part of `ApiClient` (src/api/client.ts) the task pane calls. Declared structurally so the panes
 * depend on behaviour, not on the class, and tests may hand in the real client or any equivalent.
 */
export interface TaskpaneApi {
  ask(request: AskRequest, options?: { signal?: AbortSignal }): Promise<AskResponse>;
  listSessions(query?: SessionListQuery, options?: { signal?: AbortSignal }): Promise<Paginated<ChatSession>>;
  createSession(body?: CreateSessionRequest, options?: { signal?: AbortSignal }): Promise<ChatSession>;
  getSession(id: number, options?: { signal?: AbortSignal }): Promise<ChatSession>;
  sendMessage(id: number, body: SendMessageRequest, options?: { signal?: AbortSignal }): Promise<ChatSession>;
  uploadQuestionnaires(
    files: UploadFile[],
    fields?: QuestionnaireUploadFields,
    options?: { signal?: AbortSignal },
  ): Promise<QuestionnaireUploadResult>;
  getAnswers(id: number, query?: AnswersQuery, options?: { signal?: AbortSignal }): Promise<QuestionWithAnswers[]>;
  getStructure(id: number, options?: { signal?: AbortSignal }): Promise<Structure>;
  listRepositoryFiles(query?: RepositoryListQuery, options?: { signal?: AbortSignal }): Promise<Paginated<RepositoryFile>>;
  uploadRepositoryFiles(
    files: UploadFile[],
    fields?: RepositoryUploadFields,
    options?: { signal?: AbortSignal },
  ): Promise<RepositoryUploadResult>;
  pollAnswerProgress(
    id: number,
    options: { signal?: AbortSignal; onProgress?: (p: Progress) => void },
  ): Promise<Progress>;
}

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

/** The subset of the Web Storage API the pane uses; Office hands in a partitioned localStorage. */
export type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** Colours follow Office's theme when Office gives one, else the system's light/dark preference. */
export interface Theme {
  dark: boolean;
  /** Office's own colours (Office.context.officeTheme), applied as CSS variables when present. */
  colors?: {
    background?: string;
    foreground?: string;
    controlBackground?: string;
    controlForeground?: string;
  };
}

export type TabId = 'fill' | 'chat' | 'library' | 'settings';

export interface AppProps {
  /** Builds an API client for these settings; may throw an ApiError for a bad base URL. */
  createClient: (settings: ConnectionSettings) => TaskpaneApi;
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
