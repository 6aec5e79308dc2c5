/**
 * How an API route is declared: from its entry in src/api/endpoints.ts, by name.
 *
 *   route(app, 'sendMessage', async (request) => { ... request.params.id, request.body.message ... });
 *
 * registers `POST /chat/sessions/{id}/messages/` (its path from src/api/paths.ts) with the entry's schemas as
 * Fastify's route `schema`, validated by the zod compiler of ../http/validation.ts before the handler runs: the
 * `{id}` segment, the query and the body (JSON, form-encoded, or an upload's text fields) are checked and typed,
 * and a bad one is a 400 naming the field. An upload's files arrive as `request.uploads`. `allow` checks the
 * caller's permission before anything of the body is read or validated (a read-only key is refused first).
 *
 * A new endpoint is a name in src/api/paths.ts, its schemas in src/api/endpoints.ts (the OpenAPI document
 * follows), and `route(app, name, handler)` in a module of this folder; the OpenAPI test fails on an API route
 * registered any other way.
 * Handlers stay thin: what a request may do and what it changes live in ../domain.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import { ENDPOINT_SCHEMAS, type EndpointSchemas, type EndpointSchemasOf } from '../../api/endpoints';
import { ROUTES, type RouteName, splitRoute } from '../../api/paths';
import { principalOf } from '../http/auth';
import { readMultipart, type UploadedFile } from '../http/multipart';
import { bodyChecker, IdParams, jsonSerializerCompiler, zodValidatorCompiler, type ZodMiniTypeProvider } from '../http/validation';
import type { Principal } from '../storage/types';

declare module 'fastify' {
  interface FastifyRequest {
    /** The files of an upload endpoint's request, received before its handler runs. */
    uploads: UploadedFile[] | null;
  }
  interface FastifyContextConfig {
    /** The ENDPOINTS entry a route was declared from. */
    endpoint?: RouteName;
  }
}

/** What the type provider makes of a schema (Fastify's own `CallValidatorTypeProvider`, which it does not export). */
type ValidatorOf<S> = (ZodMiniTypeProvider & { schema: S })['validator'];
type SerializerOf<S> = (ZodMiniTypeProvider & { schema: S })['serializer'];
type Validated<E, K extends 'query' | 'body'> = E extends { [k in K]: infer S } ? ValidatorOf<S> : undefined;
type Params<N extends RouteName> = (typeof ROUTES)[N] extends `${string}{id}${string}` ? { id: number } : unknown;
type Uploads<E> = E extends { upload: true } ? { uploads: UploadedFile[] } : unknown;

/** A handler's request, typed from its endpoint's schemas. */
export type RouteRequest<N extends RouteName> = FastifyRequest & {
  params: Params<N>;
  query: Validated<EndpointSchemasOf<N>, 'query'>;
  body: Validated<EndpointSchemasOf<N>, 'body'>;
} & Uploads<EndpointSchemasOf<N>>;

/**
 * A response schema's type without the index signatures of its loose objects (they accept extra fields; an
 * interface such as a storage record, which has no index signature, must still be assignable).
 */
type Declared<T> = T extends readonly (infer U)[] ? Declared<U>[] : T extends object ? { [K in keyof T as string extends K ? never : K]: Declared<T[K]> } : T;

/** What a handler answers: what its endpoint's response schema accepts. */
export type RouteAnswer<N extends RouteName> = Declared<SerializerOf<EndpointSchemasOf<N>['response']>>;

/** Answers its endpoint's response, or the reply it sent itself (a download that is not JSON). */
export type RouteHandler<N extends RouteName> = (request: RouteRequest<N>, reply: FastifyReply) => Promise<RouteAnswer<N> | FastifyReply>;

export interface RouteOptions {
  /** Throws (403) when the caller may not use this endpoint; runs before the body is read. */
  allow?: (p: Principal) => void;
}

export function route<N extends RouteName>(app: FastifyInstance, name: N, handler: RouteHandler<N>): void;
export function route<N extends RouteName>(app: FastifyInstance, name: N, options: RouteOptions, handler: RouteHandler<N>): void;
export function route<N extends RouteName>(app: FastifyInstance, name: N, a: RouteOptions | RouteHandler<N>, b?: RouteHandler<N>): void {
  const [options, handler] = typeof a === 'function' ? [{}, a] : [a, b!];
  const e: EndpointSchemas = ENDPOINT_SCHEMAS[name];
  const { method, path } = splitRoute(ROUTES[name]);
  if (!app.hasRequestDecorator('uploads')) app.decorateRequest('uploads', null);
  // Multipart bodies are streamed to disk by readMultipart, not parsed by Fastify: an upload's fields are
  // validated with the same checker once received, still before the handler.
  const checkFields = e.upload && e.body ? bodyChecker(e.body) : null;
  const schema: FastifySchema = {
    ...(path.includes('{id}') ? { params: IdParams } : {}),
    ...(e.query ? { querystring: e.query } : {}),
    ...(e.body && !e.upload ? { body: e.body } : {}),
    response: { 200: e.response },
  };
  app.route({
    method,
    url: path.replace(/\{(\w+)\}/g, ':$1'),
    schema,
    // Which entry the route was declared from (the OpenAPI test checks every API route has one).
    config: { endpoint: name },
    // Typed by Fastify as compilers of the whole route schema; they are called once per part.
    validatorCompiler: zodValidatorCompiler as FastifySchemaCompiler<FastifySchema>,
    serializerCompiler: jsonSerializerCompiler as FastifySerializerCompiler<FastifySchema>,
    ...(options.allow ? { preValidation: async (request: FastifyRequest) => options.allow!(principalOf(request)) } : {}),
    ...(e.upload
      ? {
          preHandler: async (request: FastifyRequest) => {
            const { files, fields } = await readMultipart(request);
            const checked = checkFields ? checkFields(fields) : { value: {} };
            if ('error' in checked) throw checked.error;
            request.body = checked.value;
            request.uploads = files;
          },
        }
      : {}),
    handler: (request, reply) => handler(request as RouteRequest<N>, reply),
  });
}
