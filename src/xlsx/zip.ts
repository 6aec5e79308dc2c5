/**
 * A minimal zip reader and a lossless rewriter.
 *
 * Why not unzip everything and zip it again: re-compressing changes the bytes of every part, and a
 * generic zip writer drops what it does not know (extra fields, timestamps, flags, order). Here the
 * central directory is read as is, only the entries that are asked for are inflated, and the
 * rewrite copies every untouched entry's local header and compressed data verbatim: the output
 * differs from the input only in the replaced entries and in the offsets that point at them.
 *
 * Zip bombs are refused from the central directory's declared sizes before anything is inflated,
 * and inflation itself stops as soon as an entry produces more than it declared. This is the one
 * zip reader of the project: the questionnaire detector, the writer and the workbench open packages
 * here. Deflate itself is a ZipCodec (./codec.ts): Node's zlib in Node, fflate in the browser.
 */
import { defaultZipCodec, type ZipCodec } from './codec';
import { XlsxError } from './errors';

export interface ZipLimits {
  maxEntries: number;
  /** Sum of declared uncompressed sizes. */
  maxTotalUncompressed: number;
  maxEntryUncompressed: number;
  /** Uncompressed/compressed ratio allowed for entries bigger than `ratioMinSize`. */
  maxRatio: number;
  ratioMinSize: number;
}

// Real questionnaires stay far below these (a 5 MB workbook holds tens of MB of XML); the detector
// turns whole sheets into grids, so the total is what the service can hold in memory.
export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 20_000,
  maxTotalUncompressed: 256 * 1024 * 1024,
  maxEntryUncompressed: 256 * 1024 * 1024,
  maxRatio: 500,
  ratioMinSize: 16 * 1024 * 1024,
};

export interface ZipEntry {
  name: string;
  /** Index in the central directory (= output order). */
  index: number;
  method: number;
  flags: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
  /** Start and end (exclusive) of this entry's central directory record in the archive. */
  centralStart: number;
  centralEnd: number;
  /** Where the offset to patch lives inside the central record: 42 or inside the zip64 extra. */
  offsetFieldPos: number;
  offsetFieldIs64: boolean;
}

export interface ZipArchive {
  bytes: Uint8Array;
  entries: ZipEntry[];
  byName: Map<string, ZipEntry>;
  /** The archive comment, copied to the output. */
  comment: Uint8Array;
  /** How messages name the file (`"q.xlsx"`, `The original`). */
  label: string;
  /** Inflates what is read and deflates what is rewritten. */
  codec: ZipCodec;
}

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_EOCD = 0x06054b50;
const SIG_ZIP64_EOCD = 0x06064b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const SIG_DESCRIPTOR = 0x08074b50;

const u16 = (b: Uint8Array, p: number) => b[p]! | (b[p + 1]! << 8);
const u32 = (b: Uint8Array, p: number) => (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0;
const u64 = (b: Uint8Array, p: number) => u32(b, p) + u32(b, p + 4) * 0x1_0000_0000;

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && u32(bytes, 0) === SIG_LOCAL;
}

const damaged = (label: string, what: string) =>
  new XlsxError('corrupt', `${label} is damaged: not a readable zip archive (${what}). Re-save it from Excel as .xlsx.`);
const bomb = (label: string, why: string) => new XlsxError('zip_bomb', `${label} was refused as a possible zip bomb: ${why}.`);

function findEndOfCentralDirectory(b: Uint8Array): number {
  const min = Math.max(0, b.length - 22 - 0xffff);
  for (let p = b.length - 22; p >= min; p--) {
    if (b[p] === 0x50 && u32(b, p) === SIG_EOCD && p + 22 + u16(b, p + 20) <= b.length) return p;
  }
  return -1;
}

const utf8 = new TextDecoder('utf-8');
const utf8Names = new TextEncoder();
const cp437ish = new TextDecoder('latin1');

export function readZip(bytes: Uint8Array, limits: ZipLimits = DEFAULT_ZIP_LIMITS, label = 'The file', codec: ZipCodec = defaultZipCodec()): ZipArchive {
  const corrupt = (what: string) => damaged(label, what);
  const eocd = findEndOfCentralDirectory(bytes);
  if (eocd < 0) throw corrupt('no central directory: truncated or not a zip');
  let count = u16(bytes, eocd + 10);
  let cdSize = u32(bytes, eocd + 12);
  let cdOffset = u32(bytes, eocd + 16);
  const comment = bytes.subarray(eocd + 22, eocd + 22 + u16(bytes, eocd + 20));
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    const loc = eocd - 20;
    if (loc < 0 || u32(bytes, loc) !== SIG_ZIP64_LOCATOR) throw corrupt('zip64 locator missing');
    const z64 = u64(bytes, loc + 8);
    if (z64 + 56 > bytes.length || u32(bytes, z64) !== SIG_ZIP64_EOCD) throw corrupt('zip64 end record missing');
    count = u64(bytes, z64 + 32);
    cdSize = u64(bytes, z64 + 40);
    cdOffset = u64(bytes, z64 + 48);
  }
  if (count > limits.maxEntries) {
    throw bomb(label, `it declares ${count} entries (limit ${limits.maxEntries})`);
  }
  if (cdOffset + cdSize > bytes.length) throw corrupt('central directory outside the file');

  const entries: ZipEntry[] = [];
  const byName = new Map<string, ZipEntry>();
  let total = 0;
  let p = cdOffset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > bytes.length || u32(bytes, p) !== SIG_CENTRAL) throw corrupt(`central record ${i} unreadable`);
    const flags = u16(bytes, p + 8);
    const method = u16(bytes, p + 10);
    const nameLen = u16(bytes, p + 28);
    const extraLen = u16(bytes, p + 30);
    const commentLen = u16(bytes, p + 32);
    const nameBytes = bytes.subarray(p + 46, p + 46 + nameLen);
    const name = (flags & 0x800 ? utf8 : cp437ish).decode(nameBytes);
    let compressedSize = u32(bytes, p + 20);
    let uncompressedSize = u32(bytes, p + 24);
    let localHeaderOffset = u32(bytes, p + 42);
    let offsetFieldPos = p + 42;
    let offsetFieldIs64 = false;
    if (compressedSize === 0xffffffff || uncompressedSize === 0xffffffff || localHeaderOffset === 0xffffffff) {
      // zip64 extra (id 1): the 64-bit values present are exactly those whose 32-bit field is saturated.
      let x = p + 46 + nameLen;
      const xEnd = x + extraLen;
      while (x + 4 <= xEnd) {
        const id = u16(bytes, x);
        const len = u16(bytes, x + 2);
        if (id === 1) {
          let q = x + 4;
          if (uncompressedSize === 0xffffffff) (uncompressedSize = u64(bytes, q)), (q += 8);
          if (compressedSize === 0xffffffff) (compressedSize = u64(bytes, q)), (q += 8);
          if (localHeaderOffset === 0xffffffff) {
            localHeaderOffset = u64(bytes, q);
            offsetFieldPos = q;
            offsetFieldIs64 = true;
          }
          break;
        }
        x += 4 + len;
      }
    }
    const centralEnd = p + 46 + nameLen + extraLen + commentLen;
    const entry: ZipEntry = {
      name,
      index: i,
      method,
      flags,
      crc32: u32(bytes, p + 16),
      compressedSize,
      uncompressedSize,
      localHeaderOffset,
      centralStart: p,
      centralEnd,
      offsetFieldPos,
      offsetFieldIs64,
    };
    checkBombLimits(entry, limits, label);
    total += uncompressedSize;
    if (total > limits.maxTotalUncompressed) {
      throw bomb(label, `its parts would inflate to more than ${mib(limits.maxTotalUncompressed)}`);
    }
    entries.push(entry);
    byName.set(name, entry);
    p = centralEnd;
  }
  return { bytes, entries, byName, comment, label, codec };
}

const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

function checkBombLimits(e: ZipEntry, limits: ZipLimits, label: string): void {
  if (e.uncompressedSize > limits.maxEntryUncompressed) {
    throw bomb(label, `part ${e.name} would inflate to ${mib(e.uncompressedSize)} (limit ${mib(limits.maxEntryUncompressed)})`);
  }
  if (e.uncompressedSize > limits.ratioMinSize && e.uncompressedSize > limits.maxRatio * Math.max(1, e.compressedSize)) {
    const ratio = Math.round(e.uncompressedSize / Math.max(1, e.compressedSize));
    throw bomb(label, `part ${e.name} would inflate ${ratio} times, to ${mib(e.uncompressedSize)}`);
  }
}

/** Offset of the compressed data of an entry, from its local header. */
function dataStart(z: ZipArchive, e: ZipEntry): number {
  const b = z.bytes;
  const p = e.localHeaderOffset;
  if (p + 30 > b.length || u32(b, p) !== SIG_LOCAL) throw damaged(z.label, `local header of ${e.name} missing`);
  return p + 30 + u16(b, p + 26) + u16(b, p + 28);
}

/** Length of the whole local record (header, data, data descriptor) as stored. */
function localRecordLength(z: ZipArchive, e: ZipEntry): number {
  const b = z.bytes;
  let end = dataStart(z, e) + e.compressedSize;
  if (e.flags & 0x8) {
    const localExtraHas64 = hasZip64Extra(b, e.localHeaderOffset);
    const sizeBytes = localExtraHas64 ? 16 : 8;
    end += (end + 4 <= b.length && u32(b, end) === SIG_DESCRIPTOR ? 4 : 0) + 4 + sizeBytes;
  }
  if (end > b.length) throw damaged(z.label, `entry ${e.name} runs past the end of the file`);
  return end - e.localHeaderOffset;
}

function hasZip64Extra(b: Uint8Array, local: number): boolean {
  const nameLen = u16(b, local + 26);
  let x = local + 30 + nameLen;
  const end = x + u16(b, local + 28);
  while (x + 4 <= end) {
    if (u16(b, x) === 1) return true;
    x += 4 + u16(b, x + 2);
  }
  return false;
}

/** The entry's uncompressed bytes, refusing to produce more than it declared. */
export function readEntry(z: ZipArchive, e: ZipEntry): Uint8Array {
  if (e.flags & 0x1) throw new XlsxError('encrypted', `${z.label} has an encrypted part (${e.name}); save the workbook without a password.`);
  const start = dataStart(z, e);
  const data = z.bytes.subarray(start, start + e.compressedSize);
  if (data.length < e.compressedSize) throw damaged(z.label, `entry ${e.name} is truncated`);
  let out: Uint8Array;
  if (e.method === 0) {
    out = data;
  } else if (e.method === 8) {
    out = inflateCapped(z.codec, data, e, z.label);
  } else {
    throw new XlsxError('unsupported', `${z.label}: part ${e.name} uses zip compression method ${e.method}, which is not supported.`);
  }
  if (out.length !== e.uncompressedSize) throw damaged(z.label, `entry ${e.name} has ${out.length} bytes, ${e.uncompressedSize} declared`);
  if (crc32(out) !== e.crc32) throw damaged(z.label, `checksum of ${e.name} does not match`);
  return out;
}

function inflateCapped(codec: ZipCodec, data: Uint8Array, e: ZipEntry, label: string): Uint8Array {
  if (data.length === 0 && e.uncompressedSize === 0) return new Uint8Array(0);
  let out: Uint8Array | null;
  try {
    out = codec.inflateRaw(data, e.uncompressedSize);
  } catch (err) {
    throw damaged(label, `entry ${e.name} does not inflate: ${(err as Error).message}`);
  }
  if (out === null) throw bomb(label, `part ${e.name} inflates beyond its declared size`);
  return out;
}

let crcTables: Uint32Array[] | null = null;

/** CRC-32 (zip's), slicing by 8: every written part needs one, and sheets can be tens of MB. */
export function crc32(data: Uint8Array): number {
  if (!crcTables) {
    const t0 = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      t0[n] = c >>> 0;
    }
    crcTables = [t0];
    for (let k = 1; k < 8; k++) {
      const prev = crcTables[k - 1]!;
      const t = new Uint32Array(256);
      for (let n = 0; n < 256; n++) t[n] = (prev[n]! >>> 8) ^ t0[prev[n]! & 0xff]!;
      crcTables.push(t);
    }
  }
  const [t0, t1, t2, t3, t4, t5, t6, t7] = crcTables as [
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
  ];
  let c = 0xffffffff;
  let i = 0;
  const end8 = data.length - (data.length % 8);
  for (; i < end8; i += 8) {
    const a = (c ^ (data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24))) >>> 0;
    c =
      t7[a & 0xff]! ^
      t6[(a >>> 8) & 0xff]! ^
      t5[(a >>> 16) & 0xff]! ^
      t4[a >>> 24]! ^
      t3[data[i + 4]!]! ^
      t2[data[i + 5]!]! ^
      t1[data[i + 6]!]! ^
      t0[data[i + 7]!]!;
  }
  for (; i < data.length; i++) c = t0[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

class ByteWriter {
  private chunks: Uint8Array[] = [];
  length = 0;
  push(b: Uint8Array): void {
    this.chunks.push(b);
    this.length += b.length;
  }
  concat(): Uint8Array {
    const out = new Uint8Array(this.length);
    let p = 0;
    for (const c of this.chunks) out.set(c, p), (p += c.length);
    return out;
  }
}

const put16 = (b: Uint8Array, p: number, v: number) => ((b[p] = v & 0xff), (b[p + 1] = (v >>> 8) & 0xff));
const put32 = (b: Uint8Array, p: number, v: number) => {
  b[p] = v & 0xff;
  b[p + 1] = (v >>> 8) & 0xff;
  b[p + 2] = (v >>> 16) & 0xff;
  b[p + 3] = (v >>> 24) & 0xff;
};
const put64 = (b: Uint8Array, p: number, v: number) => (put32(b, p, v >>> 0), put32(b, p + 4, Math.floor(v / 0x1_0000_0000)));

/** zlib level for a rewritten part: the default for normal parts, faster for huge sheets (ratio differs by a few %). */
export function deflateLevel(size: number): number {
  return size > 8 * 1024 * 1024 ? 3 : 6;
}

/** DOS date of 1980-01-01 (the earliest a zip can say): new parts carry no invented timestamp. */
const DOS_DATE_1980 = (0 << 9) | (1 << 5) | 1;

/** Where a rewrite writes: the entries' records (`out`) and the central directory (`central`). */
interface ZipOutput {
  out: ByteWriter;
  central: ByteWriter;
}

/**
 * The archive with some entries' contents replaced and new entries appended after the existing
 * ones (`additions`, e.g. a comments part for notes); every other entry is copied byte for byte.
 */
export function rewriteZip(
  z: ZipArchive,
  replacements: ReadonlyMap<string, Uint8Array>,
  level?: number,
  additions: ReadonlyMap<string, Uint8Array> = new Map(),
): Uint8Array {
  checkRewrite(z, replacements, additions);
  const w: ZipOutput = { out: new ByteWriter(), central: new ByteWriter() };
  for (const e of z.entries) {
    const content = replacements.get(e.name);
    if (content === undefined) copyEntry(z, e, w);
    else replaceEntry(z, e, content, level, w);
  }
  for (const [entryName, content] of additions) addEntry(z, entryName, content, level, w);
  const cdOffset = w.out.length;
  const cd = w.central.concat();
  w.out.push(cd);
  for (const record of endRecords(z, z.entries.length + additions.size, cdOffset, cd.length)) w.out.push(record);
  return w.out.concat();
}

/** Only entries the archive has are replaced, and only entries it has not are added. */
function checkRewrite(z: ZipArchive, replacements: ReadonlyMap<string, Uint8Array>, additions: ReadonlyMap<string, Uint8Array>): void {
  for (const name of replacements.keys()) {
    if (!z.byName.has(name)) throw new XlsxError('bad_write', `Cannot replace ${name}: the archive has no such entry.`);
  }
  for (const name of additions.keys()) {
    if (z.byName.has(name)) throw new XlsxError('bad_write', `Cannot add ${name}: the archive already has it.`);
  }
}

/** An entry copied byte for byte; only its central record's offset moves. */
function copyEntry(z: ZipArchive, e: ZipEntry, { out, central }: ZipOutput): void {
  const b = z.bytes;
  const offset = out.length;
  out.push(b.subarray(e.localHeaderOffset, e.localHeaderOffset + localRecordLength(z, e)));
  const rec = b.slice(e.centralStart, e.centralEnd);
  const pos = e.offsetFieldPos - e.centralStart;
  if (e.offsetFieldIs64) put64(rec, pos, offset);
  else if (offset > 0xfffffffe) throw new XlsxError('unsupported', 'The output would exceed 4 GiB.');
  else put32(rec, pos, offset);
  central.push(rec);
}

/** An entry with new content: deflated, its name, time, attributes and comment kept. */
function replaceEntry(z: ZipArchive, e: ZipEntry, content: Uint8Array, level: number | undefined, { out, central }: ZipOutput): void {
  const b = z.bytes;
  const offset = out.length;
  const compressed = z.codec.deflateRaw(content, level ?? deflateLevel(content.length));
  const crc = crc32(content);
  if (compressed.length > 0xfffffffe || content.length > 0xfffffffe || offset > 0xfffffffe) {
    throw new XlsxError('unsupported', `The rewritten entry ${e.name} would need zip64, which is not supported.`);
  }
  const localNameLen = u16(b, e.localHeaderOffset + 26);
  const name = b.subarray(e.localHeaderOffset + 30, e.localHeaderOffset + 30 + localNameLen);
  // Bit 3 (data descriptor) is cleared: sizes are known. Bit 11 (UTF-8 names) is kept.
  const flags = e.flags & 0x0800;
  const local = new Uint8Array(30 + name.length);
  put32(local, 0, SIG_LOCAL);
  put16(local, 4, 20);
  put16(local, 6, flags);
  put16(local, 8, 8);
  local.set(b.subarray(e.localHeaderOffset + 10, e.localHeaderOffset + 14), 10); // time, date
  put32(local, 14, crc);
  put32(local, 18, compressed.length);
  put32(local, 22, content.length);
  put16(local, 26, name.length);
  put16(local, 28, 0);
  local.set(name, 30);
  out.push(local);
  out.push(compressed);

  const c = e.centralStart;
  const nameLen = u16(b, c + 28);
  const extraLen = u16(b, c + 30);
  const commentLen = u16(b, c + 32);
  const cname = b.subarray(c + 46, c + 46 + nameLen);
  const ccomment = b.subarray(c + 46 + nameLen + extraLen, c + 46 + nameLen + extraLen + commentLen);
  const rec = new Uint8Array(46 + cname.length + ccomment.length);
  rec.set(b.subarray(c, c + 46), 0); // signature, versions, attributes, time: as they were
  put16(rec, 6, 20);
  put16(rec, 8, flags);
  put16(rec, 10, 8);
  put32(rec, 16, crc);
  put32(rec, 20, compressed.length);
  put32(rec, 24, content.length);
  put16(rec, 28, cname.length);
  put16(rec, 30, 0); // the zip64 extra, if any, described the old sizes
  put16(rec, 32, ccomment.length);
  put16(rec, 34, 0);
  put32(rec, 42, offset);
  rec.set(cname, 46);
  rec.set(ccomment, 46 + cname.length);
  central.push(rec);
}

/** A new entry after the existing ones: a UTF-8 name, deflated, dated 1980-01-01. */
function addEntry(z: ZipArchive, entryName: string, content: Uint8Array, level: number | undefined, { out, central }: ZipOutput): void {
  const offset = out.length;
  const compressed = z.codec.deflateRaw(content, level ?? deflateLevel(content.length));
  const crc = crc32(content);
  if (compressed.length > 0xfffffffe || content.length > 0xfffffffe || offset > 0xfffffffe) {
    throw new XlsxError('unsupported', `The new entry ${entryName} would need zip64, which is not supported.`);
  }
  const name = utf8Names.encode(entryName);
  const local = new Uint8Array(30 + name.length);
  put32(local, 0, SIG_LOCAL);
  put16(local, 4, 20);
  put16(local, 6, 0x0800); // UTF-8 name
  put16(local, 8, 8);
  put16(local, 12, DOS_DATE_1980);
  put32(local, 14, crc);
  put32(local, 18, compressed.length);
  put32(local, 22, content.length);
  put16(local, 26, name.length);
  local.set(name, 30);
  out.push(local);
  out.push(compressed);
  const rec = new Uint8Array(46 + name.length);
  put32(rec, 0, SIG_CENTRAL);
  put16(rec, 4, 20);
  put16(rec, 6, 20);
  put16(rec, 8, 0x0800);
  put16(rec, 10, 8);
  put16(rec, 14, DOS_DATE_1980);
  put32(rec, 16, crc);
  put32(rec, 20, compressed.length);
  put32(rec, 24, content.length);
  put16(rec, 28, name.length);
  put32(rec, 42, offset);
  rec.set(name, 46);
  central.push(rec);
}

/** The end of central directory record, after the zip64 ones when `n` entries or the offsets need them. */
function endRecords(z: ZipArchive, n: number, cdOffset: number, cdLength: number): Uint8Array[] {
  const records: Uint8Array[] = [];
  if (n >= 0xffff || cdOffset + cdLength > 0xfffffffe) {
    const z64 = new Uint8Array(56 + 20);
    put32(z64, 0, SIG_ZIP64_EOCD);
    put64(z64, 4, 44);
    put16(z64, 12, 45);
    put16(z64, 14, 45);
    put64(z64, 24, n);
    put64(z64, 32, n);
    put64(z64, 40, cdLength);
    put64(z64, 48, cdOffset);
    put32(z64, 56, SIG_ZIP64_LOCATOR);
    put64(z64, 64, cdOffset + cdLength);
    put32(z64, 72, 1);
    records.push(z64);
  }
  const end = new Uint8Array(22 + z.comment.length);
  put32(end, 0, SIG_EOCD);
  put16(end, 8, Math.min(n, 0xffff));
  put16(end, 10, Math.min(n, 0xffff));
  put32(end, 12, Math.min(cdLength, 0xffffffff));
  put32(end, 16, Math.min(cdOffset, 0xffffffff));
  put16(end, 20, z.comment.length);
  end.set(z.comment, 22);
  records.push(end);
  return records;
}
