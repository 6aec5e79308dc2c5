/**
 * Fastify's validation with the zod schemas of src/api/endpoints.ts: a validator compiler (query, body, path
 * parameters), a serializer compiler, and a type provider so a handler's request is typed from the same
 * schemas. ../routes/route.ts installs them on every route it declares; nothing else validates a route's input.
 *
 * A 400 names the field: `{"error": "page_size: Too big: expected number to be <=200"}`.
 */
import type { FastifySchemaCompiler, FastifySerializerCompiler, FastifyTypeProvider } from 'fastify';
import * as z from 'zod/mini';
import { badRequest, HttpError, requestIssueMessage } from './errors';
import { formKindsOf, formToObject, isUrlencodedBody, urlencodedFields, type FormFields } from './form';

export interface ZodMiniTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodMiniType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodMiniType ? z.input<this['schema']> : unknown;
}

type Checked = { value: unknown } | { error: HttpError };

/** `{id}` path segments are digits only (section 4). */
export const IdParams = z.strictObject({
  id: z.pipe(
    z.string().check(z.regex(/^\d{1,15}$/, { error: (issue) => `must be a positive integer, got ${JSON.stringify(String(issue.input).slice(0, 40))}` })),
    z.transform(Number),
  ),
});

function check(schema: z.ZodMiniType, value: unknown, whole: string): Checked {
  const result = schema.safeParse(value);
  return result.success ? { value: result.data } : { error: badRequest(requestIssueMessage(result.error, whole)) };
}

/** Turns a conversion's own 400 (a list that is not JSON) into a validation result; anything else is a bug. */
function converted(convert: () => unknown): { value: unknown } | { error: HttpError } {
  try {
    return { value: convert() };
  } catch (error) {
    if (error instanceof HttpError) return { error };
    throw error;
  }
}

/** Every documented query parameter takes one value; a repeated one is named rather than guessed at. */
function checkQuery(schema: z.ZodMiniType) {
  return (data: unknown): Checked => {
    const query = (data ?? {}) as Record<string, unknown>;
    for (const [name, value] of Object.entries(query)) {
      if (Array.isArray(value)) return { error: badRequest(`${name}: given ${value.length} times; give it once`) };
    }
    return check(schema, query, 'query');
  };
}

/**
 * A body as JSON, as a form-encoded body, or as the text fields of a multipart upload (`FormFields`): forms are
 * converted with what the schema says of each field (integers, booleans, lists, JSON objects), then checked.
 * No body at all is an empty object (`POST /chat/sessions/` may be sent empty).
 */
export function bodyChecker(schema: z.ZodMiniType): (data: unknown) => Checked {
  const kinds = formKindsOf(schema);
  return (data) => {
    const input = converted(() => {
      if (data instanceof Map) return formToObject(data as FormFields, kinds);
      if (isUrlencodedBody(data)) return formToObject(urlencodedFields(data, kinds), kinds);
      return data ?? {};
    });
    return 'error' in input ? input : check(schema, input.value, 'body');
  };
}

export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodMiniType> = ({ schema, httpPart }) => {
  if (httpPart === 'querystring') return checkQuery(schema);
  if (httpPart === 'body') return bodyChecker(schema);
  return (data: unknown) => check(schema, data ?? {}, httpPart ?? 'request');
};

/**
 * Answers are written as they are: the response schemas type the handlers (through the type provider) and the
 * service's tests check answers against them, but checking every answer again in production would cost a
 * questionnaire's whole answer list per request.
 */
export const jsonSerializerCompiler: FastifySerializerCompiler<z.ZodMiniType> = () => (data) => JSON.stringify(data);
