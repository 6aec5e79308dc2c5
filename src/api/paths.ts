/**
 * Every endpoint of the v2 interface and of this project's extensions by name, as `METHOD /path` under /api/v2
 * (`{id}` for a path parameter): the one list of paths. The client calls these; ./endpoints.ts gives each its
 * schemas (for the service's route validation and the OpenAPI document). No zod here, so the task pane's
 * first paint carries the list without the endpoint table.
 */
export const ROUTES = {
  ask: 'POST /chat/ask/',
  listSessions: 'GET /chat/sessions/',
  createSession: 'POST /chat/sessions/',
  getSession: 'GET /chat/sessions/{id}/',
  sendMessage: 'POST /chat/sessions/{id}/messages/',
  listQuestionnaires: 'GET /filler/questionnaires/',
  uploadQuestionnaires: 'POST /filler/questionnaires/',
  getQuestionnaire: 'GET /filler/questionnaires/{id}/',
  answerProgress: 'GET /filler/questionnaires/{id}/answer-progress/',
  answers: 'GET /filler/questionnaires/{id}/answers/',
  structure: 'GET /filler/questionnaires/{id}/structure/',
  listRepository: 'GET /repository/files/',
  uploadRepository: 'POST /repository/files/',
  getRepositoryFile: 'GET /repository/files/{id}/',
  deleteRepositoryFile: 'DELETE /repository/files/{id}/',
  extensions: 'GET /extensions/',
  currentKey: 'GET /keys/current/',
  listOfferings: 'GET /offerings/',
  getOrganisationNames: 'GET /organisation/names/',
  setOrganisationNames: 'PUT /organisation/names/',
  listLibrary: 'GET /answers/library/',
  addLibraryEntry: 'POST /answers/library/',
  libraryConflicts: 'GET /answers/library/conflicts/',
  settleLibraryConflict: 'POST /answers/library/conflicts/settle/',
  undoLibrarySettle: 'POST /answers/library/conflicts/undo/',
  exportLibrary: 'GET /answers/library/export/',
  getLibrarySettings: 'GET /answers/library/settings/',
  setLibrarySettings: 'PUT /answers/library/settings/',
  getLibraryEntry: 'GET /answers/library/{id}/',
  editLibraryEntry: 'PUT /answers/library/{id}/',
  approveLibraryEntry: 'POST /answers/library/{id}/approve/',
  retireLibraryEntry: 'POST /answers/library/{id}/retire/',
  restoreLibraryEntry: 'POST /answers/library/{id}/restore/',
  setLibraryEntryReview: 'PUT /answers/library/{id}/review/',
  setLibrarySectionReview: 'PUT /answers/library/sections/review/',
  startLibraryReplay: 'POST /answers/library/replay/',
  listLibraryReplays: 'GET /answers/library/replay/',
  getLibraryReplay: 'GET /answers/library/replay/{id}/',
} as const;

export type RouteName = keyof typeof ROUTES;
export type Route = (typeof ROUTES)[RouteName];
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** `'GET /chat/sessions/{id}/'` as its method and path. */
export function splitRoute(route: Route): { method: HttpMethod; path: string } {
  const space = route.indexOf(' ');
  return { method: route.slice(0, space) as HttpMethod, path: route.slice(space + 1) };
}

/** The path relative to /api/v2/ with the id filled in: `chat/sessions/12/`. */
export function routePath(route: Route, id?: string): string {
  const path = route.slice(route.indexOf(' ') + 2);
  return id === undefined ? path : path.replace('{id}', id);
}
