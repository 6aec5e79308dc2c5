/**
 * A file to read: its bytes already in memory, or a path on disk (a stored upload), so a reader in a
 * worker thread loads it there and the request thread never holds it.
 */
import { readFile, stat } from 'node:fs/promises';

export type FileSource = Uint8Array | { path: string };

export async function sourceBytes(source: FileSource): Promise<Uint8Array> {
  if (source instanceof Uint8Array) return source;
  // A view, not a copy: a reader holds one file of up to 50 MB once, not twice.
  const bytes = await readFile(source.path);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export async function sourceSize(source: FileSource): Promise<number> {
  if (source instanceof Uint8Array) return source.byteLength;
  return (await stat(source.path)).size;
}
