/**
 * Every endpoint of the v2 interface and of this project's extensions, with the schemas its query, body and
 * answer follow: the one list the OpenAPI document is generated from (./openapi.ts), and that a test checks
 * against the service's routes in both directions.
 */
import * as z from 'zod/mini';
import {
  AskRequest,
  AskResponse,
  ChatMessage,
  ChatSession,
  CreateSessionRequest,
  DeletedRepositoryFile,
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
  KeyIdentity,
  ServiceExtensions,
  SessionListQuery,
  Structure,
  AnswersQuery,
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

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Endpoint {
  method: HttpMethod;
  /** Under /api/v2, with `{id}` for path parameters. */
  path: string;
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

const LIB = 'answers.library';

export const ENDPOINTS: readonly Endpoint[] = [
  { method: 'POST', path: '/chat/ask/', summary: 'Ask one question of the knowledge base (optionally within a session)', body: AskRequest, response: AskResponse },
  { method: 'GET', path: '/chat/sessions/', summary: 'List chat sessions', query: SessionListQuery, response: paginated(ChatSession) },
  { method: 'POST', path: '/chat/sessions/', summary: 'Start a chat session', body: CreateSessionRequest, response: ChatSession },
  { method: 'GET', path: '/chat/sessions/{id}/', summary: 'A chat session with its messages', response: ChatSession },
  { method: 'POST', path: '/chat/sessions/{id}/messages/', summary: 'Send a message in a session and get the answer', body: SendMessageRequest, response: ChatMessage },
  { method: 'GET', path: '/filler/questionnaires/', summary: 'List questionnaires', query: QuestionnaireListQuery, response: z.array(Questionnaire) },
  {
    method: 'POST',
    path: '/filler/questionnaires/',
    summary: 'Upload questionnaires (.xlsx, .xlsm, .csv); their questions are found at once, answers generated in the background',
    body: QuestionnaireUploadFields,
    upload: true,
    response: QuestionnaireUploadResult,
  },
  { method: 'GET', path: '/filler/questionnaires/{id}/', summary: 'One questionnaire', response: Questionnaire },
  { method: 'GET', path: '/filler/questionnaires/{id}/answer-progress/', summary: 'How far answering has come', response: Progress },
  { method: 'GET', path: '/filler/questionnaires/{id}/answers/', summary: 'Questions with their answer slots and answers', query: AnswersQuery, response: z.array(QuestionWithAnswers) },
  { method: 'GET', path: '/filler/questionnaires/{id}/structure/', summary: 'Tabs, sections and filter counts', response: Structure },
  { method: 'GET', path: '/repository/files/', summary: 'List knowledge-base files', query: RepositoryListQuery, response: paginated(RepositoryFile) },
  { method: 'POST', path: '/repository/files/', summary: 'Upload files to the knowledge base', body: RepositoryUploadFields, upload: true, response: RepositoryUploadResult },
  { method: 'GET', path: '/repository/files/{id}/', summary: 'One knowledge-base file and its processing', response: RepositoryFile },
  {
    method: 'DELETE',
    path: '/repository/files/{id}/',
    summary: 'Delete a knowledge-base file and everything learned from it',
    response: DeletedRepositoryFile,
    extension: 'repository.delete',
  },
  { method: 'GET', path: '/extensions/', summary: 'What this service offers beyond the v2 interface', response: ServiceExtensions, extension: 'extensions' },
  { method: 'GET', path: '/keys/current/', summary: 'Whose key this is: its organisation, its user and whether it is read-only', response: KeyIdentity, extension: 'keys.current' },
  { method: 'GET', path: '/offerings/', summary: "The organisation's offerings", response: OfferingList, extension: 'offerings.list' },
  { method: 'GET', path: '/organisation/names/', summary: "The names that make a document the organisation's own", response: OrganisationNames, extension: 'organisation.names' },
  { method: 'GET', path: '/answers/library/', summary: 'Browse and search the answer library', query: LibraryListQuery, response: LibraryPage, extension: LIB },
  { method: 'POST', path: '/answers/library/', summary: 'Add an entry to the answer library by hand', body: NewLibraryEntry, response: LibraryEntryDetail, extension: LIB },
  { method: 'GET', path: '/answers/library/conflicts/', summary: 'Entries answering the same question differently, grouped', query: LibraryConflictQuery, response: LibraryConflictPage, extension: LIB },
  { method: 'POST', path: '/answers/library/conflicts/settle/', summary: 'Make one entry canonical for its question; the others are retired', body: LibrarySettle, response: LibraryConflict, extension: LIB },
  { method: 'POST', path: '/answers/library/conflicts/undo/', summary: "Undo the settlement of an entry's question", body: LibrarySettle, response: LibraryConflict, extension: LIB },
  {
    method: 'GET', path: '/answers/library/export/', summary: 'The answer library as an .xlsx workbook (one row an entry)',
    response: z.string(), produces: LIBRARY_EXPORT_TYPE, extension: LIB,
  },
  { method: 'GET', path: '/answers/library/settings/', summary: "The organisation's review age for library entries", response: LibrarySettings, extension: LIB },
  { method: 'PUT', path: '/answers/library/settings/', summary: "Set the organisation's review age", body: LibrarySettingsInput, response: LibrarySettings, extension: LIB },
  { method: 'GET', path: '/answers/library/{id}/', summary: 'One library entry with its versions and history', response: LibraryEntryDetail, extension: LIB },
  { method: 'PUT', path: '/answers/library/{id}/', summary: "Edit an entry's slots: a new version, the old kept", body: LibraryEdit, response: LibraryEntryDetail, extension: LIB },
  { method: 'POST', path: '/answers/library/{id}/approve/', summary: 'Approve an entry (high trust until its review is due)', body: LibraryNoBody, response: LibraryEntryDetail, extension: LIB },
  { method: 'POST', path: '/answers/library/{id}/retire/', summary: 'Retire an entry: kept, never used', body: LibraryRetire, response: LibraryEntryDetail, extension: LIB },
  { method: 'POST', path: '/answers/library/{id}/restore/', summary: 'Restore a retired entry', body: LibraryNoBody, response: LibraryEntryDetail, extension: LIB },
  { method: 'PUT', path: '/organisation/names/', summary: "Set the organisation's own names", body: OrganisationNames, response: OrganisationNames, extension: 'organisation.names' },
];
