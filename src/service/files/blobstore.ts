/**
 * Where uploaded bytes live. Names are generated (never the uploaded name, which may contain path
 * separators or collide); the original name is only stored in the database.
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, createWriteStream, mkdirSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { join } from 'node:path';
import type { FileSource } from './source';

export interface StoredBlob {
  name: string;
  sha256: string;
  size: number;
}

/** An upload streamed to disk, waiting to be stored (`adopt`) or dropped (`discard`). */
export interface IncomingBlob {
  path: string;
  sha256: string;
  size: number;
}

export interface BlobStore {
  put(bytes: Uint8Array, extension: string): Promise<StoredBlob>;
  /**
   * Writes a stream to a waiting file as it arrives (never whole in memory), hashing it on the way.
   * `onChunk` may throw to stop (e.g. a request over its size limit), and `signal` abort it (the request
   * has ended); the partial file is then removed.
   */
  receive(chunks: AsyncIterable<Uint8Array>, onChunk?: (bytes: number) => void, signal?: AbortSignal): Promise<IncomingBlob>;
  /** Stores a received file under a generated name. */
  adopt(incoming: IncomingBlob, extension: string): Promise<StoredBlob>;
  discard(path: string): Promise<void>;
  read(name: string): Promise<Uint8Array>;
  /** Where a reader (in a worker thread) finds the stored bytes, without this thread loading them. */
  source(name: string): FileSource;
  remove(name: string): Promise<void>;
}

/** Received files older than this were left by a process that died mid-request. */
const STALE_INCOMING_MS = 60 * 60 * 1000;

export class DiskBlobStore implements BlobStore {
  private readonly dir: string;
  private readonly incomingDir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'files');
    this.incomingDir = join(this.dir, 'incoming');
    // Uploaded documents are readable by this user only (folders 700, files 600), also in an older data folder.
    mkdirSync(this.incomingDir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
    this.removeStaleIncoming();
  }

  async put(bytes: Uint8Array, extension: string): Promise<StoredBlob> {
    const name = newName(extension);
    const path = join(this.dir, name);
    // Write then rename, so a crash never leaves a half-written file under a name the database knows.
    await writeFile(`${path}.part`, bytes, { flush: true, mode: 0o600 });
    await rename(`${path}.part`, path);
    return { name, sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.byteLength };
  }

  async receive(chunks: AsyncIterable<Uint8Array>, onChunk?: (bytes: number) => void, signal?: AbortSignal): Promise<IncomingBlob> {
    const path = join(this.incomingDir, `${randomBytes(16).toString('hex')}.part`);
    const hash = createHash('sha256');
    let size = 0;
    const measured = async function* (source: AsyncIterable<Uint8Array>) {
      for await (const chunk of source) {
        size += chunk.byteLength;
        onChunk?.(chunk.byteLength);
        hash.update(chunk);
        yield chunk;
      }
    };
    // pipeline owns every stream's errors, back-pressure and teardown: a client that breaks off, or a
    // limit thrown by onChunk, rejects here and nowhere else (destroying a file stream by hand while a
    // write was in flight made it emit an error with no listener, which ended the process).
    try {
      await pipeline(chunks, measured, createWriteStream(path, { mode: 0o600 }), { signal });
    } catch (error) {
      await this.discard(path);
      throw error;
    }
    return { path, sha256: hash.digest('hex'), size };
  }

  async adopt(incoming: IncomingBlob, extension: string): Promise<StoredBlob> {
    const name = newName(extension);
    await rename(incoming.path, join(this.dir, name));
    return { name, sha256: incoming.sha256, size: incoming.size };
  }

  async discard(path: string): Promise<void> {
    // Only ever a file this store received.
    if (!path.startsWith(this.incomingDir)) return;
    await unlink(path).catch(() => undefined);
  }

  async read(name: string): Promise<Uint8Array> {
    return new Uint8Array(await readFile(this.pathOf(name)));
  }

  source(name: string): FileSource {
    return { path: this.pathOf(name) };
  }

  private pathOf(name: string): string {
    if (!/^[a-f0-9]{32}(\.[a-z0-9]+)?$/.test(name)) throw new Error(`invalid stored file name ${JSON.stringify(name)}`);
    return join(this.dir, name);
  }

  async remove(name: string): Promise<void> {
    await unlink(join(this.dir, name)).catch(() => undefined);
  }

  private removeStaleIncoming(): void {
    // Another process on this data folder may be receiving right now: only old leftovers go.
    const now = Date.now();
    for (const name of readdirSync(this.incomingDir)) {
      const path = join(this.incomingDir, name);
      try {
        if (now - statSync(path).mtimeMs > STALE_INCOMING_MS) unlinkSync(path);
      } catch {
        // Gone already, or not ours to remove.
      }
    }
  }
}

function newName(extension: string): string {
  const safeExt = extension
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .slice(0, 10);
  return `${randomBytes(16).toString('hex')}${safeExt ? `.${safeExt}` : ''}`;
}
