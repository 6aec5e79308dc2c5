/**
 * The answer library's page cursors (the `cursor` query parameter its `next` links carry): where the page
 * after this one starts, so following `next` reads the entries' index from there instead of skipping
 * every entry before it. Opaque to clients (base64url); a cursor that is not one of ours is a 400.
 */
import { badRequest } from '../http/errors';

const encode = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

function decode(token: string, kind: string): string {
  const text = Buffer.from(token, 'base64url').toString('utf8');
  if (!text.startsWith(`${kind}:`) || encode(text) !== token)
    throw badRequest('cursor: not a cursor this list gave; follow the "next" link as given, or ask by page');
  return text.slice(kind.length + 1);
}

/** After an entry of the list (its file and id: the list's order). */
export function entryCursor(row: { file_id: number; id: number }): string {
  return encode(`e:${row.file_id}:${row.id}`);
}

export function entryAfter(token: string): { file_id: number; id: number } {
  const m = /^(-?\d{1,16}):(\d{1,16})$/.exec(decode(token, 'e'));
  if (!m) throw badRequest('cursor: not a cursor this list gave; follow the "next" link as given, or ask by page');
  return { file_id: Number(m[1]), id: Number(m[2]) };
}

/** After a conflict group (its question key: the groups' order). */
export function keyCursor(qkey: string): string {
  return encode(`k:${qkey}`);
}

export function keyAfter(token: string): string {
  return decode(token, 'k');
}
