/**
 * Form fields into the plain objects the request schemas check: the one conversion for both
 * form-encoded bodies (application/x-www-form-urlencoded) and the text fields of multipart uploads.
 * Fields arrive as strings; lists may come as repeated fields, `name[]`, `name[0]`, `1,2,3` (integer
 * lists) or a JSON array; an empty integer or boolean field is a field not given (what an HTML form
 * sends for an empty input).
 */
import { parse as parseQueryString } from 'fast-querystring';
import type * as z from 'zod/mini';
import { LIMITS } from '../../api/schemas';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './depth';
import { badRequest } from './errors';

/** What form conversion needs to know of each field; read off the request schema by `formKindsOf`. */
export interface FormKinds {
  /** Lists of strings. */
  arrays?: string[];
  /** Lists of integers; whole numbers become numbers, anything else is left for the schema to refuse. */
  intArrays?: string[];
  ints?: string[];
  booleans?: string[];
  /** JSON objects given as one field. */
  objects?: string[];
}

const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);
const WHOLE = /^\d{1,15}$/;

/**
 * More fields than any valid request can have (each list is at most LIMITS.idListLength long, plus the
 * few scalar fields). Counted before parsing, so a form of 40,000 `offering_ids[i]` costs one scan and
 * a 400, not an object of 40,000 keys built on the request thread.
 */
export const MAX_FORM_FIELDS = 2 * LIMITS.idListLength + 50;

/** Form-encoded bodies as parsed, so a route's body validation knows to convert them (a JSON body is taken as is). */
const URLENCODED_BODIES = new WeakSet<object>();

/** The form-encoded body parser: fast-querystring behind a field count. */
export function parseUrlencodedBody(body: string): Record<string, unknown> {
  let fields = 1;
  for (let i = body.indexOf('&'); i !== -1; i = body.indexOf('&', i + 1)) {
    if (++fields > MAX_FORM_FIELDS) throw badRequest(`the form has more than ${MAX_FORM_FIELDS} fields`);
  }
  const parsed = parseQueryString(body) as Record<string, unknown>;
  URLENCODED_BODIES.add(parsed);
  return parsed;
}

export function isUrlencodedBody(body: unknown): body is Record<string, unknown> {
  return typeof body === 'object' && body !== null && URLENCODED_BODIES.has(body);
}

type Def = { type: string; innerType?: Schema; element?: Schema; out?: Schema; shape?: Record<string, Schema> };
type Schema = { _zod: { def: Def } };

/** The schema under `optional` and `nullable`. */
function unwrapped(schema: Schema): Def {
  let def = schema._zod.def;
  while ((def.type === 'optional' || def.type === 'nullable') && def.innerType) def = def.innerType._zod.def;
  return def;
}

const isNumber = (def: Def) => def.type === 'number' || (def.type === 'pipe' && def.out !== undefined && unwrapped(def.out).type === 'number');

/**
 * How the fields of a form become the object a request schema checks, read off the schema itself (so no route
 * lists its fields twice): integers and booleans are converted, lists collected, objects parsed as JSON. A field
 * whose schema coerces by itself (`z.coerce`) stays a string.
 */
export function formKindsOf(schema: z.ZodMiniType): FormKinds {
  const kinds: Required<FormKinds> = { arrays: [], intArrays: [], ints: [], booleans: [], objects: [] };
  const shape = unwrapped(schema as unknown as Schema).shape ?? {};
  for (const [name, field] of Object.entries(shape)) {
    const def = unwrapped(field);
    if (def.type === 'number') kinds.ints.push(name);
    else if (def.type === 'boolean') kinds.booleans.push(name);
    else if (def.type === 'record') kinds.objects.push(name);
    else if (def.type === 'array' && def.element) (isNumber(unwrapped(def.element)) ? kinds.intArrays : kinds.arrays).push(name);
  }
  return kinds;
}

/** Field name to its values in the order they came. */
export type FormFields = Map<string, string[]>;

/**
 * The fields of a form-encoded body. `name[]` and `name[0]` join `name` when it is a list; for any other
 * field the name is kept as sent, so the 400 names it.
 */
export function urlencodedFields(body: Record<string, unknown>, kinds: FormKinds): FormFields {
  const lists = new Set([...(kinds.arrays ?? []), ...(kinds.intArrays ?? [])]);
  const fields: FormFields = new Map();
  for (const [rawName, value] of Object.entries(body)) {
    const base = rawName.replace(/\[\d*\]$/, '');
    const name = base !== rawName && lists.has(base) ? base : rawName;
    let values = fields.get(name);
    if (!values) fields.set(name, (values = []));
    // Appended in place: copying the list for each of 40,000 `name[i]` fields is quadratic.
    for (const v of Array.isArray(value) ? value : [value]) values.push(String(v));
  }
  return fields;
}

export function formToObject(fields: FormFields, kinds: FormKinds): Record<string, unknown> {
  // Entries, not assignments: a field named `__proto__` stays a field (and the schema refuses it).
  const out = new Map<string, unknown>();
  const ints = new Set(kinds.intArrays ?? []);
  const lists = new Set([...(kinds.arrays ?? []), ...ints]);
  for (const [name, values] of fields) {
    const single = values.length === 1 ? values[0]!.trim() : null;
    if (lists.has(name)) {
      const items: unknown[] = [];
      for (const v of values) {
        const trimmed = v.trim();
        if (trimmed.startsWith('[')) {
          let parsed: unknown;
          try {
            parsed = JSON.parse(trimmed);
          } catch {
            throw badRequest(`${name}: not a valid JSON array`);
          }
          if (Array.isArray(parsed)) {
            for (const item of parsed) items.push(item);
            continue;
          }
        }
        if (!ints.has(name)) {
          items.push(v);
          continue;
        }
        for (const part of trimmed.split(',')) {
          const item = part.trim();
          if (item !== '') items.push(WHOLE.test(item) ? Number(item) : item);
        }
      }
      out.set(name, items);
    } else if ((kinds.ints?.includes(name) || kinds.booleans?.includes(name)) && single === '') {
      continue;
    } else if (kinds.ints?.includes(name) && single !== null && WHOLE.test(single)) {
      out.set(name, Number(single));
    } else if (kinds.booleans?.includes(name) && single !== null && (TRUE.has(single.toLowerCase()) || FALSE.has(single.toLowerCase()))) {
      out.set(name, TRUE.has(single.toLowerCase()));
    } else if (kinds.objects?.includes(name)) {
      if (values.length !== 1) throw badRequest(`${name}: given more than once`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(values[0]!);
      } catch {
        throw badRequest(`${name}: not valid JSON`);
      }
      if (nestsDeeperThan(parsed, MAX_JSON_DEPTH)) throw badRequest(`${name}: nested deeper than ${MAX_JSON_DEPTH} levels`);
      out.set(name, parsed);
    } else {
      out.set(name, values.length === 1 ? values[0] : values);
    }
  }
  return Object.fromEntries(out);
}
