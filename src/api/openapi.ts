/** The OpenAPI 3.1 description of the API, generated from ./endpoints.ts and its zod schemas (never written by hand). */
import * as z from 'zod/mini';
import { ErrorBody } from './schemas';
import { ENDPOINTS, type Endpoint } from './endpoints';

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
  // Transforms and coercions have no JSON Schema; their input side is what a client sends.
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  return rest;
}

function queryParameters(schema: z.ZodMiniType): object[] {
  const described = jsonSchema(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(described.properties ?? {}).map(([name, s]) => ({
    name,
    in: 'query',
    required: described.required?.includes(name) ?? false,
    schema: s,
  }));
}

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: jsonSchema(ErrorBody, 'output') } } });

function operation(e: Endpoint): object {
  const parameters: object[] = [];
  if (e.path.includes('{id}')) parameters.push({ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } });
  if (e.query) parameters.push(...queryParameters(e.query));
  let requestBody: object | undefined;
  if (e.upload) {
    const fields = jsonSchema(e.body ?? z.object({}), 'input') as { properties?: Record<string, unknown> };
    requestBody = {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: { files: { type: 'array', items: { type: 'string', contentMediaType: 'application/octet-stream' } }, ...fields.properties },
            required: ['files'],
          },
        },
      },
    };
  } else if (e.body) {
    const schema = jsonSchema(e.body, 'input');
    requestBody = { required: true, content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } } };
  }
  return {
    summary: e.summary,
    operationId: `${e.method.toLowerCase()}${e.path.replace(/\{id\}/g, 'ById').replace(/[^a-zA-Z]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    ...(e.extension ? { 'x-qfill-extension': e.extension } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: {
      '200': e.produces
        ? { description: 'OK', content: { [e.produces]: { schema: { type: 'string', contentMediaType: e.produces } } } }
        : { description: 'OK', content: { 'application/json': { schema: jsonSchema(e.response, 'output') } } },
      '400': errorResponse('The request is invalid; the error names what was wrong'),
      '403': errorResponse('No valid key, no active licence, or not allowed for this key'),
      '404': errorResponse('Not found, or not visible to this key'),
      '429': errorResponse("Over the organisation's quota or its share of uploads; see Retry-After"),
    },
  };
}

export function openApiDocument(serverUrl = '/api/v2'): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const e of ENDPOINTS) (paths[e.path] ??= {})[e.method.toLowerCase()] = operation(e);
  return {
    openapi: '3.1.0',
    info: { title: 'Knowledge-Grounded QA and Questionnaire Filling Service', version: '2' },
    servers: [{ url: serverUrl }],
    security: [{ apiKey: [] }, { apiKeyAuthorization: [] }],
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        apiKeyAuthorization: { type: 'apiKey', in: 'header', name: 'Authorization', description: '"Api-Key <key>"' },
      },
    },
    paths,
  };
}
