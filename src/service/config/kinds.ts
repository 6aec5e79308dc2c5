/**
 * The kinds of value a setting takes: the zod schema that reads the variable's text, and what it expects in
 * words (for the error that names the variable, and for the configuration table).
 */
import { z } from 'zod/mini';

export interface Kind<T> {
  /** Reads the variable's text, already trimmed and never empty. */
  readonly schema: z.ZodMiniType<T, string>;
  /** What a valid value looks like, e.g. "a whole number of at least 1". */
  readonly expects: string;
}

const DECIMAL = /^\+?(\d+\.?\d*|\.\d+)$/;
const WHOLE = /^\+?\d+$/;

export function text(expects = 'any text'): Kind<string> {
  return { schema: z.string(), expects };
}

export function integer(min: number): Kind<number> {
  return {
    schema: z.pipe(z.string().check(z.regex(WHOLE)), z.pipe(z.transform(Number), z.number().check(z.gte(min)))),
    expects: `a whole number of at least ${min}`,
  };
}

export function positiveNumber(unit: string): Kind<number> {
  return {
    schema: z.pipe(z.string().check(z.regex(DECIMAL)), z.pipe(z.transform(Number), z.number().check(z.gt(0)))),
    expects: `a number of ${unit} above 0 (decimals allowed)`,
  };
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T): Kind<T[number]> {
  return { schema: z.enum(values), expects: `one of ${values.join(', ')}` };
}

const TRUE = ['1', 'true', 'yes'];
const FALSE = ['0', 'false', 'no'];

export const flag: Kind<boolean> = {
  schema: z.pipe(
    z.string().check(z.refine((s) => [...TRUE, ...FALSE].includes(s.toLowerCase()))),
    z.transform((s) => TRUE.includes(s.toLowerCase())),
  ),
  expects: '1 or 0 (also true/false, yes/no)',
};

function urlWithScheme(schemes: RegExp, expects: string): Kind<string> {
  return {
    schema: z.string().check(
      z.refine((s) => {
        if (!schemes.test(s)) return false;
        try {
          new URL(s);
          return true;
        } catch {
          return false;
        }
      }),
    ),
    expects,
  };
}

export const httpUrl = urlWithScheme(/^https?:\/\//i, 'an http:// or https:// URL');

export const postgresUrl = urlWithScheme(/^postgres(ql)?:\/\//, 'a PostgreSQL URL such as postgres://user@127.0.0.1:5432/qfill');
