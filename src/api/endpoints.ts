/**
 * Every endpoint of the v2 interface and of this project's extensions (named in ./paths.ts), with the schemas
 * its query, body and answer follow. The service registers each route from its entry here
 * (src/service/routes/route.ts), so these schemas are what it validates; the OpenAPI document is generated
 * from them (./openapi.ts), and a test checks the document against the service's routes in both directions.
 */
import * as z from 'zod/mini';
import * as L from './library';
import * as R from './replay';
import * as S from './schemas';
import { type HttpMethod, ROUTES, type RouteName, splitRoute } from './paths';

export type { HttpMethod } from './paths';

/**
 * What `PUT /organisation/names/` takes: a list of names, or one comma-separated string (the service trims them,
 * drops empty ones and bounds their number and length). Here, not in ./schemas.ts: the client sends a list and
 * does not check it, and a union would add zod's union code to the task pane's first paint.
 */
export const OrganisationNamesUpdate = z.strictObject({
  names: z.union([z.string(), z.array(z.string())], { error: 'must be a list of strings (or one comma-separated string)' }),
});

/** What an endpoint takes and answers, beside its name and path. */
export interface EndpointSchemas {
  summary: string;
  query?: z.ZodMiniType;
  /** A JSON (or form) body, or the text fields of a multipart upload beside its `files`. */
  body?: z.ZodMiniType;
  upload?: boolean;
  response: z.ZodMiniType;
  /** Not in the v2 interface: listed by `GET /extensions/` under this name. */
  extension?: string;
  /** The answer's media type when it is not JSON (a download); `response` then describes nothing. */
  produces?: string;
}

export interface Endpoint extends EndpointSchemas {
  name: RouteName;
  method: HttpMethod;
  /** Under /api/v2, with `{id}` for path parameters. */
  path: string;
}

const LIB = 'answers.library';
const REPLAY = 'answers.replay';

/** By route name; `satisfies` makes a route without its schemas (or schemas without a route) a type error. */
export const ENDPOINT_SCHEMAS = {
  ask: { summary: 'Ask one question of the knowledge base (optionally within a session)', body: S.AskRequest, response: S.AskResponse },
  listSessions: { summary: 'List chat sessions', query: S.SessionListQuery, response: S.paginated(S.ChatSession) },
  createSession: { summary: 'Start a chat session', body: S.CreateSessionRequest, response: S.ChatSession },
  getSession: { summary: 'A chat session with its messages', response: S.ChatSession },
  sendMessage: {
    summary: 'Send a message in a session; answers the session with its messages, the answer last',
    body: S.SendMessageRequest,
    response: S.ChatSession,
  },
  listQuestionnaires: { summary: 'List questionnaires', query: S.QuestionnaireListQuery, response: z.array(S.Questionnaire) },
  uploadQuestionnaires: {
    summary: 'Upload questionnaires (.xlsx, .xlsm, .csv); their questions are found at once, answers generated in the background',
    body: S.QuestionnaireUploadFields,
    upload: true,
    response: S.QuestionnaireUploadResult,
  },
  getQuestionnaire: { summary: 'One questionnaire', response: S.Questionnaire },
  answerProgress: { summary: 'How far answering has come', response: S.Progress },
  answers: { summary: 'Questions with their answer slots and answers', query: S.AnswersQuery, response: z.array(S.QuestionWithAnswers) },
  structure: { summary: 'Tabs, sections and filter counts', response: S.Structure },
  listRepository: { summary: 'List knowledge-base files', query: S.RepositoryListQuery, response: S.paginated(S.RepositoryFile) },
  uploadRepository: { summary: 'Upload files to the knowledge base', body: S.RepositoryUploadFields, upload: true, response: S.RepositoryUploadResult },
  getRepositoryFile: { summary: 'One knowledge-base file and its processing', response: S.RepositoryFile },
  deleteRepositoryFile: {
    summary: 'Delete a knowledge-base file and everything learned from it',
    response: S.DeletedRepositoryFile,
    extension: 'repository.delete',
  },
  extensions: { summary: 'What this service offers beyond the v2 interface', response: S.ServiceExtensions, extension: 'extensions' },
  currentKey: { summary: 'Whose key this is: its organisation, its user and whether it is read-only', response: S.KeyIdentity, extension: 'keys.current' },
  listOfferings: { summary: "The organisation's offerings", response: S.OfferingList, extension: 'offerings.list' },
  getOrganisationNames: { summary: "The names that make a document the organisation's own", response: S.OrganisationNames, extension: 'organisation.names' },
  setOrganisationNames: {
    summary: "Set the organisation's own names",
    body: OrganisationNamesUpdate,
    response: S.OrganisationNames,
    extension: 'organisation.names',
  },
  listLibrary: { summary: 'Browse and search the answer library', query: L.LibraryListQuery, response: L.LibraryPage, extension: LIB },
  addLibraryEntry: { summary: 'Add an entry to the answer library by hand', body: L.NewLibraryEntry, response: L.LibraryEntryDetail, extension: LIB },
  libraryConflicts: {
    summary: 'Entries answering the same question differently, grouped',
    query: L.LibraryConflictQuery,
    response: L.LibraryConflictPage,
    extension: LIB,
  },
  settleLibraryConflict: {
    summary: 'Make one entry canonical for its question; the others are retired',
    body: L.LibrarySettle,
    response: L.LibraryConflict,
    extension: LIB,
  },
  undoLibrarySettle: { summary: "Undo the settlement of an entry's question", body: L.LibrarySettle, response: L.LibraryConflict, extension: LIB },
  exportLibrary: {
    summary: 'The answer library as an .xlsx workbook (one row an entry)',
    response: z.string(),
    produces: L.LIBRARY_EXPORT_TYPE,
    extension: LIB,
  },
  getLibrarySettings: { summary: "The organisation's review age for library entries", response: L.LibrarySettings, extension: LIB },
  setLibrarySettings: { summary: "Set the organisation's review age", body: L.LibrarySettingsInput, response: L.LibrarySettings, extension: LIB },
  getLibraryEntry: { summary: 'One library entry with its versions and history', response: L.LibraryEntryDetail, extension: LIB },
  editLibraryEntry: { summary: "Edit an entry's slots: a new version, the old kept", body: L.LibraryEdit, response: L.LibraryEntryDetail, extension: LIB },
  approveLibraryEntry: {
    summary: 'Approve an entry (high trust until its review is due)',
    body: L.LibraryNoBody,
    response: L.LibraryEntryDetail,
    extension: LIB,
  },
  retireLibraryEntry: { summary: 'Retire an entry: kept, never used', body: L.LibraryRetire, response: L.LibraryEntryDetail, extension: LIB },
  restoreLibraryEntry: { summary: 'Restore a retired entry', body: L.LibraryNoBody, response: L.LibraryEntryDetail, extension: LIB },
  setLibrarySectionReview: {
    summary: 'Set the owner and review interval of every entry learned from one sheet of a file',
    body: L.LibrarySectionReviewInput,
    response: L.LibrarySectionReviewResult,
    extension: LIB,
  },
  setLibraryEntryReview: {
    summary: "Set an entry's owner and its own review interval",
    body: L.LibraryReviewInput,
    response: L.LibraryEntryDetail,
    extension: LIB,
  },
  startLibraryReplay: {
    summary: 'Replay past questionnaires against the answer library (leave-one-out), in the background',
    body: R.ReplayStart,
    response: R.ReplayRun,
    extension: REPLAY,
  },
  listLibraryReplays: { summary: 'Kept replay runs, newest first (the trend)', query: R.ReplayListQuery, response: R.ReplayRunPage, extension: REPLAY },
  getLibraryReplay: { summary: 'One replay run: per questionnaire, overall, wrong answers, gaps by section', response: R.ReplayRun, extension: REPLAY },
} as const satisfies { [N in RouteName]: EndpointSchemas };

export type EndpointSchemasOf<N extends RouteName> = (typeof ENDPOINT_SCHEMAS)[N];

export function endpoint(name: RouteName): Endpoint {
  return { name, ...splitRoute(ROUTES[name]), ...ENDPOINT_SCHEMAS[name] };
}

export const ENDPOINTS: readonly Endpoint[] = (Object.keys(ROUTES) as RouteName[]).map(endpoint);
