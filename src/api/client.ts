/**
 * The v2 client used by the task pane (browser) and the qfill CLI (Node): one method per endpoint of
 * ../shared/spec/interface-v2.md section 4, plus pagination and progress polling. Inputs are checked
 * against the contract before sending; answers are validated against it after receiving.
 */
import { z } from 'zod/mini';
import {
  AnswersQuery,
  AskRequest,
  AskResponse,
  ChatSession,
  CreateSessionRequest,
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
  DeletedRepositoryFile,
  KeyIdentity,
  ServiceExtensions,
  OfferingList,
  OrganisationNames,
  SendMessageRequest,
  SessionListQuery,
  Structure,
  paginated,
} from './schemas';
import type { Paginated } from './schemas';
import { ApiError, invalidArgument } from './errors';
import { checkInput, digitsId, formBody, multipartBody, normaliseBaseUrl, sessionId, withQuery } from './encode';
import type { UploadFile } from './encode';
import { send, type Call, type RetryNotice, type Transport } from './http';
import { ROUTES as EP, routePath, type Route } from './paths';
import { pollUntilComplete, type PollOptions } from './poll';
import type { ExtensionTransport } from './library-client';
import { DEFAULT_RETRY_POLICY, sleep as realSleep, type RetryPolicy, type Sleep } from './retry';

export type { UploadFile } from './encode';
export type { RetryPolicy, Sleep } from './retry';
export type { PollOptions } from './poll';
export type { RetryNotice } from './http';

export interface RequestOptions {
  signal?: AbortSignal;
}

export interface ClientOptions {
  /** Normalised: trailing slashes handled, '/api/v2/' appended once if absent. */
  baseUrl: string;
  /** Sent as `X-API-Key` (or `Authorization: Api-Key <key>`); an empty key sends no auth header. */
  apiKey: string;
  authScheme?: 'x-api-key' | 'authorization';
  fetch?: typeof fetch;
  /** Defaults: { retries: 4, baseDelayMs: 300, maxDelayMs: 8000, maxRetryAfterMs: 60000 }. */
  retry?: Partial<RetryPolicy>;
  /**
   * Per-attempt time limit in ms. Default 120 s for every call except uploads, which have none
   * unless this option is given (then it applies to uploads too).
   */
  timeoutMs?: number;
  /** Waiting between retries and polls; injectable so tests need not wait. */
  sleep?: Sleep;
  /** Jitter source in [0, 1). */
  random?: () => number;
  /** Told before each automatic repeat of a call (429, network fault, 502-504 on a GET), with the wait. */
  onRetry?: (notice: RetryNotice) => void;
}

const DEFAULT_TIMEOUT_MS = 120_000;

const SessionPage = paginated(ChatSession);
const RepositoryPage = paginated(RepositoryFile);
const QuestionnaireList = z.array(Questionnaire);
const AnswersList = z.array(QuestionWithAnswers);

export class ApiClient {
  /** Normalised, ends with '/api/v2/'. */
  readonly baseUrl: string;
  private readonly transport: Transport;
  private readonly explicitTimeout: boolean;
  /**
   * The client's transport for extension clients (`new LibraryClient(client.extensionTransport)`): they are built where
   * they are used, so their schemas load with the view that needs them, not with the pane's first paint.
   */
  readonly extensionTransport: ExtensionTransport;

  constructor(options: ClientOptions) {
    if (!options || typeof options !== 'object') throw invalidArgument('ApiClient needs options with baseUrl and apiKey.');
    this.baseUrl = normaliseBaseUrl(options.baseUrl);
    const apiKey = typeof options.apiKey === 'string' ? options.apiKey.trim() : '';
    // A key with line breaks or non-Latin-1 characters would make fetch throw an opaque TypeError.
    if (/[^\x20-\x7e]/.test(apiKey)) {
      throw invalidArgument('The API key contains characters that cannot be sent in a header; paste the key again.');
    }
    const scheme = options.authScheme ?? 'x-api-key';
    if (scheme !== 'x-api-key' && scheme !== 'authorization') {
      throw invalidArgument(`Unknown authScheme ${JSON.stringify(scheme)}; use 'x-api-key' or 'authorization'.`);
    }
    const authHeaders: Record<string, string> = !apiKey ? {} : scheme === 'authorization' ? { Authorization: `Api-Key ${apiKey}` } : { 'X-API-Key': apiKey };
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== 'function') throw invalidArgument('No fetch function is available; pass options.fetch.');
    const timeout = options.timeoutMs;
    if (timeout !== undefined && !(Number.isFinite(timeout) && timeout > 0)) {
      throw invalidArgument(`timeoutMs must be a positive number of milliseconds; got ${String(timeout)}.`);
    }
    this.explicitTimeout = timeout !== undefined;
    this.transport = {
      // Called unbound: some browsers throw "Illegal invocation" for a fetch detached from window.
      fetch: ((input, init) => fetchImpl(input, init)) as typeof fetch,
      baseUrl: this.baseUrl,
      authHeaders,
      retry: { ...DEFAULT_RETRY_POLICY, ...definedOnly(options.retry ?? {}) },
      timeoutMs: timeout ?? DEFAULT_TIMEOUT_MS,
      sleep: options.sleep ?? realSleep,
      random: options.random ?? Math.random,
      ...(options.onRetry ? { onRetry: options.onRetry } : {}),
    };
    this.extensionTransport = { url: (route, id) => this.url(route, id), call: (c) => this.call(c) };
  }

  // ---- Chat ------------------------------------------------------------------------------------

  ask(req: AskRequest, opts: RequestOptions & { encoding?: 'json' | 'form' } = {}): Promise<AskResponse> {
    return this.run(async () => {
      const body = checkInput(AskRequest, req, 'ask request');
      if (opts.encoding === 'form') {
        return this.call({ method: 'POST', endpoint: EP.ask, url: this.url(EP.ask), schema: AskResponse, body: formBody(body), signal: opts.signal });
      }
      return this.postJson(EP.ask, undefined, body, AskResponse, opts);
    });
  }

  listSessions(q: SessionListQuery = {}, opts: RequestOptions = {}): Promise<Paginated<ChatSession>> {
    return this.run(() => {
      const query = checkInput(SessionListQuery, q, 'session list query');
      return this.get(EP.listSessions, withQuery(this.url(EP.listSessions), query), SessionPage, opts);
    });
  }

  iterateSessions(q: SessionListQuery = {}, opts: RequestOptions = {}): AsyncIterable<ChatSession> {
    return this.pages(EP.listSessions, () => withQuery(this.url(EP.listSessions), checkInput(SessionListQuery, q, 'session list query')), SessionPage, opts);
  }

  createSession(req: CreateSessionRequest = {}, opts: RequestOptions = {}): Promise<ChatSession> {
    return this.run(() => this.postJson(EP.createSession, undefined, checkInput(CreateSessionRequest, req, 'new session'), ChatSession, opts));
  }

  getSession(id: number, opts: RequestOptions = {}): Promise<ChatSession> {
    return this.run(() => this.get(EP.getSession, this.url(EP.getSession, sessionId(id)), ChatSession, opts));
  }

  sendMessage(id: number, req: SendMessageRequest, opts: RequestOptions = {}): Promise<ChatSession> {
    return this.run(() => {
      return this.postJson(EP.sendMessage, sessionId(id), checkInput(SendMessageRequest, req, 'message'), ChatSession, opts);
    });
  }

  // ---- Questionnaires --------------------------------------------------------------------------

  listQuestionnaires(q: QuestionnaireListQuery = {}, opts: RequestOptions = {}): Promise<Questionnaire[]> {
    return this.run(() => {
      const query = checkInput(QuestionnaireListQuery, q, 'questionnaire list query');
      return this.get(EP.listQuestionnaires, withQuery(this.url(EP.listQuestionnaires), query), QuestionnaireList, opts);
    });
  }

  uploadQuestionnaires(files: UploadFile[], fields: QuestionnaireUploadFields = {}, opts: RequestOptions = {}): Promise<QuestionnaireUploadResult> {
    return this.run(() => {
      const f = checkInput(QuestionnaireUploadFields, fields, 'questionnaire upload fields');
      const body = multipartBody(files, {
        ...f,
        advanced_options: f.advanced_options === undefined ? undefined : JSON.stringify(f.advanced_options),
      });
      return this.upload(EP.uploadQuestionnaires, body, QuestionnaireUploadResult, opts);
    });
  }

  getQuestionnaire(id: number | string, opts: RequestOptions = {}): Promise<Questionnaire> {
    return this.run(() => this.get(EP.getQuestionnaire, this.url(EP.getQuestionnaire, digitsId(id, 'questionnaire')), Questionnaire, opts));
  }

  getAnswerProgress(id: number | string, opts: RequestOptions = {}): Promise<Progress> {
    return this.run(() => this.progressOnce(id, opts.signal));
  }

  getAnswers(id: number | string, q: AnswersQuery = {}, opts: RequestOptions = {}): Promise<QuestionWithAnswers[]> {
    return this.run(() => {
      const url = this.url(EP.answers, digitsId(id, 'questionnaire'));
      return this.get(EP.answers, withQuery(url, checkInput(AnswersQuery, q, 'answers query')), AnswersList, opts);
    });
  }

  getStructure(id: number | string, opts: RequestOptions = {}): Promise<Structure> {
    return this.run(() => this.get(EP.structure, this.url(EP.structure, digitsId(id, 'questionnaire')), Structure, opts));
  }

  /**
   * Resolves with the `complete` progress. Polls at once, then every minIntervalMs while answers
   * arrive, slowing by 1.5x up to maxIntervalMs while nothing changes. Transient faults (network,
   * 5xx, 429) are tolerated up to maxConsecutiveErrors in a row; 403/404 and invalid answers reject.
   */
  pollAnswerProgress(id: number | string, opts: PollOptions = {}): Promise<Progress> {
    return this.run(() => {
      digitsId(id, 'questionnaire');
      return pollUntilComplete((signal) => this.progressOnce(id, signal, 0), this.transport.sleep, EP.answerProgress, opts);
    });
  }

  // ---- Repository ------------------------------------------------------------------------------

  listRepositoryFiles(q: RepositoryListQuery = {}, opts: RequestOptions = {}): Promise<Paginated<RepositoryFile>> {
    return this.run(() => {
      const query = checkInput(RepositoryListQuery, q, 'repository list query');
      return this.get(EP.listRepository, withQuery(this.url(EP.listRepository), query), RepositoryPage, opts);
    });
  }

  iterateRepositoryFiles(q: RepositoryListQuery = {}, opts: RequestOptions = {}): AsyncIterable<RepositoryFile> {
    return this.pages(
      EP.listRepository,
      () => withQuery(this.url(EP.listRepository), checkInput(RepositoryListQuery, q, 'repository list query')),
      RepositoryPage,
      opts,
    );
  }

  uploadRepositoryFiles(files: UploadFile[], fields: RepositoryUploadFields = {}, opts: RequestOptions = {}): Promise<RepositoryUploadResult> {
    return this.run(() => {
      const body = multipartBody(files, checkInput(RepositoryUploadFields, fields, 'repository upload fields'));
      return this.upload(EP.uploadRepository, body, RepositoryUploadResult, opts);
    });
  }

  getRepositoryFile(id: number | string, opts: RequestOptions = {}): Promise<RepositoryFile> {
    return this.run(() => this.get(EP.getRepositoryFile, this.url(EP.getRepositoryFile, digitsId(id, 'repository file')), RepositoryFile, opts));
  }

  // ---- Extensions to v2 (feature-detected with getExtensions) ----------------------------------------

  /** What the service offers beyond v2; a service without the extension endpoint answers 404 (ApiError). */
  getExtensions(opts: RequestOptions = {}): Promise<ServiceExtensions> {
    return this.run(() => this.get(EP.extensions, this.url(EP.extensions), ServiceExtensions, opts, 0));
  }

  /** Whose key this is: organisation, user, read-only (extension "keys.current"). */
  getCurrentKey(opts: RequestOptions = {}): Promise<KeyIdentity> {
    return this.run(() => this.get(EP.currentKey, this.url(EP.currentKey), KeyIdentity, opts));
  }

  /** The organisation's offerings (extension "offerings.list"). */
  listOfferings(opts: RequestOptions = {}): Promise<OfferingList> {
    return this.run(() => this.get(EP.listOfferings, this.url(EP.listOfferings), OfferingList, opts));
  }

  /** The organisation's own names (extension "organisation.names"): evidence about anyone else is a third party's. */
  getOrganisationNames(opts: RequestOptions = {}): Promise<OrganisationNames> {
    return this.run(() => this.get(EP.getOrganisationNames, this.url(EP.getOrganisationNames), OrganisationNames, opts));
  }

  setOrganisationNames(names: string[], opts: RequestOptions = {}): Promise<OrganisationNames> {
    return this.run(() =>
      this.call({
        method: 'PUT',
        endpoint: EP.setOrganisationNames,
        url: this.url(EP.setOrganisationNames),
        schema: OrganisationNames,
        signal: opts.signal,
        body: JSON.stringify({ names }),
        contentType: 'application/json',
      }),
    );
  }

  /** Removes a repository file, its passages and answer-library entries (extension "repository.delete"). */
  deleteRepositoryFile(id: number | string, opts: RequestOptions = {}): Promise<DeletedRepositoryFile> {
    return this.run(() =>
      this.call({
        method: 'DELETE',
        endpoint: EP.deleteRepositoryFile,
        url: this.url(EP.deleteRepositoryFile, digitsId(id, 'repository file')),
        schema: DeletedRepositoryFile,
        signal: opts.signal,
      }),
    );
  }

  // ---- Plumbing --------------------------------------------------------------------------------

  /** The absolute URL of a route (src/api/paths.ts), its `{id}` filled in. */
  private url(route: Route, id?: string): string {
    return this.baseUrl + routePath(route, id);
  }

  /** Turns synchronous argument errors into rejections, so every method fails the same way. */
  private run<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return fn();
    } catch (e) {
      return Promise.reject(e);
    }
  }

  private call<S extends z.ZodMiniType>(c: Call<S>): Promise<z.output<S>> {
    return send(this.transport, c);
  }

  private get<S extends z.ZodMiniType>(endpoint: string, url: string, schema: S, opts: RequestOptions, retries?: number) {
    return this.call({ method: 'GET', endpoint, url, schema, signal: opts.signal, retries });
  }

  private postJson<S extends z.ZodMiniType>(endpoint: Route, id: string | undefined, body: unknown, schema: S, opts: RequestOptions) {
    return this.call({
      method: 'POST',
      endpoint,
      url: this.url(endpoint, id),
      schema,
      signal: opts.signal,
      body: JSON.stringify(body),
      contentType: 'application/json',
    });
  }

  private upload<S extends z.ZodMiniType>(endpoint: Route, body: FormData, schema: S, opts: RequestOptions) {
    const timeoutMs = this.explicitTimeout ? this.transport.timeoutMs : null;
    return this.call({ method: 'POST', endpoint, url: this.url(endpoint), schema, body, signal: opts.signal, timeoutMs });
  }

  private progressOnce(id: number | string, signal?: AbortSignal, retries?: number): Promise<Progress> {
    const url = this.url(EP.answerProgress, digitsId(id, 'questionnaire'));
    return this.get(EP.answerProgress, url, Progress, { signal }, retries);
  }

  /**
   * Every item of every page, following the server's absolute `next`. `next` must stay on the base
   * URL's origin (the API key is sent with it) and must not repeat a page already read.
   */
  private async *pages<T>(
    endpoint: string,
    firstUrl: () => string,
    schema: z.ZodMiniType<Paginated<T>>,
    opts: RequestOptions,
  ): AsyncGenerator<T, void, undefined> {
    const origin = new URL(this.baseUrl).origin;
    const seen = new Set<string>();
    let url: string | null = new URL(firstUrl()).href;
    while (url !== null) {
      seen.add(url);
      const page: Paginated<T> = await this.get(endpoint, url, schema, opts);
      yield* page.results;
      if (page.next === null || page.next === '' || page.results.length === 0) return;
      let next: URL;
      try {
        next = new URL(page.next, url);
      } catch {
        throw this.badPage(endpoint, url, `its "next" link ${JSON.stringify(page.next)} is not a URL`);
      }
      if (next.origin !== origin) {
        throw this.badPage(endpoint, url, `its "next" link points at another origin (${next.origin}); the API key is only sent to ${origin}`);
      }
      if (seen.has(next.href)) {
        throw this.badPage(endpoint, url, `its "next" link ${next.href} repeats a page already read`);
      }
      url = next.href;
    }
  }

  private badPage(endpoint: string, url: string, why: string): ApiError {
    return new ApiError({
      kind: 'invalid_response',
      endpoint,
      url,
      message: `The service's page of ${endpoint} cannot be followed: ${why}. The listing stopped there.`,
    });
  }
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
