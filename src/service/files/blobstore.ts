/**
 * Where uploaded bytes live. Names are generated (never the uploaded name, which may contain path
 * separators or collide); the original name is only stored in the database.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileSource } from './source';

export interface StoredBlob {
  name: string;
  sha256: string;
  size: number;
}

export interface BlobStore {
  put(bytes: Uint8Array, extension: string): Promise<StoredBlob>;
  read(name: string): Promise<Uint8Array>;
  /** Where a reader (in a worker thread) finds the stored bytes, without this thread loading them. */
  source(name: string): FileSource;
  remove(name: string): Promise<void>;
}

export class DiskBlobStore implements BlobStore {
  private readonly dir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'files');
    mkdirSync(this.dir, { recursive: true });
  }

  async put(bytes: Uint8Array, extension: string): Promise<StoredBlob> {
    const safeExt = extension.toLowerCase().replace(/[^a-z0-9]/g, '').slice(0, 10);
    const name = `${randomBytes(16).toString('hex')}${safeExt ? `.${safeExt}` : ''}`;
    const path = join(this.dir, name);
    // Write then rename, so a crash never leaves a half-written file under a name the database knows.
    await writeFile(`${path}.part`, bytes, { flush: true });
    await rename(`${path}.part`, path);
    return { name, sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.byteLength };
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
}
