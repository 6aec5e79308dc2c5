/**
 * Raw deflate for the zip reader and rewriter, in two implementations behind one interface: Node's
 * native zlib where it exists (the service, `qfill`, the bench: several times faster on big sheets),
 * and fflate in the browser (the workbench loads and saves .xlsx with the same reader and writer).
 *
 * Both stop inflating as soon as an entry produces more than it declared, so the zip-bomb guard holds
 * whichever runs. Node's zlib is reached through `process.getBuiltinModule`, never an import, so this
 * layer stays bundleable for the browser without a Node polyfill.
 */
import { deflateSync, Inflate } from 'fflate';

export interface ZipCodec {
  readonly name: 'node-zlib' | 'fflate';
  /** Raw-inflates `data`; null as soon as more than `max` bytes would come out. Throws on damaged data. */
  inflateRaw(data: Uint8Array, max: number): Uint8Array | null;
  deflateRaw(data: Uint8Array, level: number): Uint8Array;
}

/** The part of node:zlib used here, typed locally: this layer imports nothing from Node. */
interface NodeZlib {
  inflateRawSync(data: Uint8Array, options: { maxOutputLength: number }): Uint8Array;
  deflateRawSync(data: Uint8Array, options: { level: number }): Uint8Array;
}

/** Node's zlib, or null outside Node (and on a Node too old for `process.getBuiltinModule`, before 20.16). */
export function nodeZipCodec(): ZipCodec | null {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const zlib = proc?.getBuiltinModule?.('node:zlib') as NodeZlib | undefined;
  if (!zlib) return null;
  return {
    name: 'node-zlib',
    inflateRaw(data, max) {
      try {
        // maxOutputLength stops a lying entry as soon as it passes its declared size.
        return zlib.inflateRawSync(data, { maxOutputLength: Math.max(1, max) });
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return null;
        throw err;
      }
    },
    deflateRaw: (data, level) => new Uint8Array(zlib.deflateRawSync(data, { level })),
  };
}

// Input is fed in slices so that a lying entry is caught after at most this times deflate's maximum
// ratio (1032:1), about 16 MiB, of output beyond what it declared.
const INFLATE_STEP = 16 * 1024;
const TOO_LARGE = new Error('inflated beyond the declared size');

/** fflate, pure JavaScript: runs anywhere. */
export const portableZipCodec: ZipCodec = {
  name: 'fflate',
  inflateRaw(data, max) {
    const chunks: Uint8Array[] = [];
    let total = 0;
    const inflater = new Inflate((chunk) => {
      total += chunk.length;
      if (total > max) throw TOO_LARGE;
      chunks.push(chunk);
    });
    try {
      let p = 0;
      do {
        inflater.push(data.subarray(p, p + INFLATE_STEP), p + INFLATE_STEP >= data.length);
        p += INFLATE_STEP;
      } while (p < data.length);
    } catch (err) {
      if (err === TOO_LARGE) return null;
      throw err;
    }
    if (chunks.length === 1) return chunks[0]!;
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of chunks) out.set(c, at), (at += c.length);
    return out;
  },
  deflateRaw: (data, level) => deflateSync(data, { level: level as 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 }),
};

let fallback: ZipCodec | null = null;

/** Node's zlib when running in Node, else fflate: what readZip uses unless told otherwise. */
export function defaultZipCodec(): ZipCodec {
  return (fallback ??= nodeZipCodec() ?? portableZipCodec);
}
