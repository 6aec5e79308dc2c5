/**
 * Every endpoint of the v2 interface and of this project's extensions (named in ./paths.ts), with the schemas
 * its query, body and answer follow. The service registers each route from its entry here
 * (src/service/routes/route.ts), so these schemas are what it validates; the OpenAPI document is generated
 * from them (./openapi.ts), and a test checks the document against the service's routes in both directions.
 */
import * as z from 'zod/mini';
import {
  AnswersQuery,
  AskRequest,
  AskResponse,
  ChatSession,
  CreateSessionRequest,
  DeletedRepositoryFile,
  KeyIdentity,
  OfferingList,
  OrganisationNames,
  paginated,
  Progress,
  Questionnaire,
  QuestionnaireListQuery,
  QuestionnaireUploadFields,
  QuestionnaireUploadResult,
  QuestionWithAnswers,
  RepositoryFile,
  RepositoryListQuery,
  RepositoryUploadFields,
  RepositoryUploadResult,
  SendMessageRequest,
  ServiceExtensions,
  SessionListQuery,
  Structure,
} from './schemas';
import {
  LibraryConflict,
  LibraryConflictPage,
  LibraryConflictQuery,
  LibraryEdit,
  LibraryEntryDetail,
  LibraryListQuery,
  LibraryNoBody,
  LibraryPage,
  LibraryRetire,
  LibrarySettings,
  LibrarySettingsInput,
  LibrarySettle,
  NewLibraryEntry,
  LIBRARY_EXPORT_TYPE,
} from './library';
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

/** By route name; `satisfies` makes a route without its schemas (or schemas without a route) a type error. */
export const ENDPOINT_SCHEMAS = {
  ask: { summary: 'Ask one question of the knowledge base (optionally within a session)', body: AskRequest, response: AskResponse },
  listSessions: { summary: 'List chat sessions', query: SessionListQuery, response: paginated(ChatSession) },
  createSession: { summary: 'Start a chat session', body: CreateSessionRequest, response: ChatSession },
  getSession: { summary: 'A chat session with its messages', response: ChatSession },
  sendMessage: { summary: 'Send a message in a session; answers the session with its messages, the answer last', body: SendMessageRequest, response: ChatSession },
  listQuestionnaires: { summary: 'List questionnaires', query: QuestionnaireListQuery, response: z.array(Questionnaire) },
  uploadQuestionnaires: {
    summary: 'Upload questionnaires (.xlsx, .xlsm, .csv); their questions are found at once, answers generated in the background',
    body: QuestionnaireUploadFields,
    upload: true,
    response: QuestionnaireUploadResult,
  },
  getQuestionnaire: { summary: 'One questionnaire', response: Questionnaire },
  answerProgress: { summary: 'How far answering has come', response: Progress },
  answers: { summary: 'Questions with their answer slots and answers', query: AnswersQuery, response: z.array(QuestionWithAnswers) },
  structure: { summary: 'Tabs, sections and filter counts', response: Structure },
  listRepository: { summary: 'List knowledge-base files', query: RepositoryListQuery, response: paginated(RepositoryFile) },
  uploadRepository: { summary: 'Upload files to the knowledge base', body: RepositoryUploadFields, upload: true, response: RepositoryUploadResult },
  getRepositoryFile: { summary: 'One knowledge-base file and its processing', response: RepositoryFile },
  deleteRepositoryFile: {
    summary: 'Delete a knowledge-base file and everything learned from it',
    response: DeletedRepositoryFile,
    extension: 'repository.delete',
  },
  extensions: { summary: 'What this service offers beyond the v2 interface', response: ServiceExtensions, extension: 'extensions' },
  currentKey: { summary: 'Whose key this is: its organisation, its user and whether it is read-only', response: KeyIdentity, extension: 'keys.current' },
  listOfferings: { summary: "The organisation's offerings", response: OfferingList, extension: 'offerings.list' },
  getOrganisationNames: { summary: "The names that make a document the organisation's own", response: OrganisationNames, extension: 'organisation.names' },
  setOrganisationNames: { summary: "Set the organisation's own names", body: OrganisationNamesUpdate, response: OrganisationNames, extension: 'organisation.names' },
  listLibrary: { summary: 'Browse and search the answer library', query: LibraryListQuery, response: LibraryPage, extension: LIB },
  addLibraryEntry: { summary: 'Add an entry to the answer library by hand', body: NewLibraryEntry, response: LibraryEntryDetail, extension: LIB },
  libraryConflicts: { summary: 'Entries answering the same question differently, grouped', query: LibraryConflictQuery, response: LibraryConflictPage, extension: LIB },
  settleLibraryConflict: { summary: 'Make one entry canonical for its question; the others are retired', body: LibrarySettle, response: LibraryConflict, extension: LIB },
  undoLibrarySettle: { summary: "Undo the settlement of an entry's question", body: LibrarySettle, response: LibraryConflict, extension: LIB },
  exportLibrary: {
    summary: 'The answer library as an .xlsx workbook (one row an entry)',
    response: z.string(),
    produces: LIBRARY_EXPORT_TYPE,
    extension: LIB,
  },
  getLibrarySettings: { summary: "The organisation's review age for library entries", response: LibrarySettings, extension: LIB },
  setLibrarySettings: { summary: "Set the organisation's review age", body: LibrarySettingsInput, response: LibrarySettings, extension: LIB },
  getLibraryEntry: { summary: 'One library entry with its versions and history', response: LibraryEntryDetail, extension: LIB },
  editLibraryEntry: { summary: "Edit an entry's slots: a new version, the old kept", body: LibraryEdit, response: LibraryEntryDetail, extension: LIB },
  approveLibraryEntry: { summary: 'Approve an entry (high trust until its review is due)', body: LibraryNoBody, response: LibraryEntryDetail, extension: LIB },
  retireLibraryEntry: { summary: 'Retire an entry: kept, never used', body: LibraryRetire, response: LibraryEntryDetail, extension: LIB },
  restoreLibraryEntry: { summary: 'Restore a retired entry', body: LibraryNoBody, response: LibraryEntryDetail, extension: LIB },
} as const satisfies { [N in RouteName]: EndpointSchemas };

export type EndpointSchemasOf<N extends RouteName> = (typeof ENDPOINT_SCHEMAS)[N];

export function endpoint(name: RouteName): Endpoint {
  return { name, ...splitRoute(ROUTES[name]), ...ENDPOINT_SCHEMAS[name] };
}

export const ENDPOINTS: readonly Endpoint[] = (Object.keys(ROUTES) as RouteName[]).map(endpoint);
