/** Public surface of the v2 client: the contract (schemas and types), the client, its errors. */
export * from './schemas';
export * from './library';
export { ApiClient } from './client';
export type { LibraryClient } from './library-client';
export type { ClientOptions, RequestOptions, UploadFile, RetryPolicy, RetryNotice, Sleep, PollOptions } from './client';
export { ApiError, describeError, describeRetry, isApiError } from './errors';
export type { ApiErrorKind } from './errors';
export { DEFAULT_RETRY_POLICY, backoffDelay, parseRetryAfter, sleep } from './retry';
export { normaliseBaseUrl } from './encode';
export { isTransient, POLL_DEFAULTS } from './poll';
