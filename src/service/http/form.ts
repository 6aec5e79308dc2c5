/** Form-encoded bodies (application/x-www-form-urlencoded) into the plain objects the request schemas check. */

export interface FormKinds {
  ints?: string[];
  intArrays?: string[];
  booleans?: string[];
}

const FORM_TRUE = new Set(['true', '1', 'on', 'yes']);
const FORM_FALSE = new Set(['false', '0', 'off', 'no']);

/**
 * Form-encoded bodies arrive as strings; give the schema the types it expects. Arrays may come as
 * repeated fields, `name[]`, `name[0]` or `1,2,3`; an empty field is a field not given (what an HTML
 * form sends for an empty input).
 */
export function coerceForm(body: Record<string, unknown>, kinds: FormKinds): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [rawKey, value] of Object.entries(body)) {
    const key = rawKey.replace(/\[\d*\]$/, '');
    const isArrayKey = key !== rawKey;
    if (kinds.intArrays?.includes(key)) {
      const list = (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(',')).map((v) => v.trim()).filter(Boolean);
      // Appended in place: copying the list for each of 40,000 `name[i]` fields is quadratic.
      const items = (out[key] ??= []) as unknown[];
      for (const v of list) items.push(/^\d{1,15}$/.test(v) ? Number(v) : v);
      continue;
    }
    if (isArrayKey) {
      // `name[]` for a field that is not a list: keep the name as sent, so the 400 names it.
      out[rawKey] = value;
      continue;
    }
    if (typeof value === 'string' && value.trim() === '' && (kinds.ints?.includes(key) || kinds.booleans?.includes(key))) continue;
    if (kinds.ints?.includes(key) && typeof value === 'string' && /^\d{1,15}$/.test(value.trim())) {
      out[key] = Number(value.trim());
    } else if (kinds.booleans?.includes(key) && typeof value === 'string' && FORM_TRUE.has(value.trim().toLowerCase())) {
      out[key] = true;
    } else if (kinds.booleans?.includes(key) && typeof value === 'string' && FORM_FALSE.has(value.trim().toLowerCase())) {
      out[key] = false;
    } else {
      out[key] = value;
    }
  }
  return out;
}

