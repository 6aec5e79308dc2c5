/**
 * The files `qfill fill` touches besides the workbook it writes: the questionnaire it reads (a regular
 * file of bounded size, never a FIFO or a device that would hang it or fill memory) and the JSON report
 * (never written through a symlink, never over a file that is not an earlier report unless --force).
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, renameSync, rmSync, writeFileSync, type Stats } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join, basename } from 'node:path';

/** The largest questionnaire read, as the local service's upload limit. */
export const MAX_QUESTIONNAIRE_MB = 50;

export class FileRefused extends Error {
  override name = 'FileRefused';
}

function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * The bytes of the questionnaire at `path`. Opened without blocking (a FIFO with no writer would wait
 * forever) and checked on the opened descriptor, so what is read is what was checked.
 */
export function readQuestionnaire(path: string, maxBytes = MAX_QUESTIONNAIRE_MB * 1024 * 1024): Uint8Array {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new FileRefused(`${path} does not exist.`);
    if (code === 'EACCES' || code === 'EPERM') throw new FileRefused(`${path} cannot be read (permission denied).`);
    if (code === 'EISDIR') throw new FileRefused(`${path} is a folder, not an .xlsx file.`);
    throw new FileRefused(`${path} cannot be read: ${(e as Error).message}`);
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw new FileRefused(`${path} is a folder, not an .xlsx file.`);
    if (!st.isFile()) throw new FileRefused(`${path} is ${kindOf(st)}, not an .xlsx file.`);
    if (st.size > maxBytes) throw new FileRefused(`${path} is larger than the ${Math.round(maxBytes / 1024 / 1024)} MB limit for a questionnaire.`);
    // Read what the file held when checked, not whatever a writer appends meanwhile.
    const bytes = new Uint8Array(st.size);
    let at = 0;
    while (at < bytes.length) {
      const n = readSync(fd, bytes, at, bytes.length - at, at);
      if (n === 0) break;
      at += n;
    }
    return at === bytes.length ? bytes : bytes.subarray(0, at);
  } catch (e) {
    if (e instanceof FileRefused) throw e;
    throw new FileRefused(`${path} cannot be read: ${(e as Error).message}`);
  } finally {
    closeSync(fd);
  }
}

/** Keys every qfill report has: a file with them is one we may replace. */
const REPORT_KEYS = ['input', 'output', 'service', 'questionnaire_id', 'changed_parts'];
const MAX_REPORT_PEEK = 64 * 1024 * 1024;

function isEarlierReport(path: string, st: Stats): boolean {
  if (st.size > MAX_REPORT_PEEK) return false;
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(readQuestionnaire(path, MAX_REPORT_PEEK)));
    return typeof parsed === 'object' && parsed !== null && REPORT_KEYS.every((k) => k in parsed);
  } catch {
    return false;
  }
}

/**
 * Refuses a report path that is a symlink (whatever it points at), something other than a regular
 * file, or an existing file that is not an earlier qfill report (unless `force`). Checked before the
 * upload, so a refused path costs nothing.
 */
export function checkReportTarget(path: string, force: boolean): void {
  let st: Stats;
  try {
    st = lstatSync(path);
  } catch {
    return; // does not exist yet: it will be created
  }
  if (st.isSymbolicLink()) throw new FileRefused(`--report ${path} is a symbolic link; the report is never written through a link. Name another file.`);
  if (st.isDirectory()) throw new FileRefused(`--report ${path} is a folder; name a file.`);
  if (!st.isFile()) throw new FileRefused(`--report ${path} is ${kindOf(st)}; name a regular file.`);
  if (!force && !isEarlierReport(path, st)) {
    throw new FileRefused(`--report ${path} already exists and is not a qfill report; pass --force to replace it.`);
  }
}

/**
 * Writes the report as a new file beside the target, then renames it over the target: the rename
 * replaces a link (if one appeared since the check) instead of writing through it.
 */
export function writeReport(path: string, text: string, force: boolean): void {
  checkReportTarget(path, force);
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    writeFileSync(tmp, text, { flag: 'wx', mode: 0o644 });
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
