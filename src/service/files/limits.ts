/**
 * How much time and memory reading one uploaded file may take, and how large what it expands to may
 * be. Real documents and questionnaires stay far below every figure; a file above one fails with the
 * limit named instead of stalling or exhausting the service. Documented in docs/operations.md ("Limits").
 */
import { readConfig, type Env } from '../config/read';
import { SETTINGS } from '../config/settings';

export interface ReadLimits {
  /** Wall-clock budget to read one file (extract its text, or detect its questions). */
  timeoutMs: number;
  /** Heap of the worker reading one file (V8 old generation, `resourceLimits.maxOldGenerationSizeMb`). */
  memoryMb: number;
  /** Characters of text (pages plus answer-library entries) one document may yield. */
  maxTextChars: number;
  /** Size of a text file (txt, md, html, csv) before it is decoded. */
  maxTextFileBytes: number;
  /** Uncompressed size of one part of a .docx package (e.g. word/document.xml). */
  maxOoxmlPartBytes: number;
  /** Uncompressed size of all parts of a .docx package. */
  maxOoxmlTotalBytes: number;
}

const MB = 1024 * 1024;

export const DEFAULT_READ_LIMITS: ReadLimits = {
  timeoutMs: SETTINGS.QFILL_READ_TIMEOUT_SECONDS.default * 1000,
  memoryMb: SETTINGS.QFILL_READ_MEMORY_MB.default,
  maxTextChars: 16 * MB,
  maxTextFileBytes: 16 * MB,
  maxOoxmlPartBytes: 64 * MB,
  maxOoxmlTotalBytes: 128 * MB,
};

/** The time and memory budgets from `QFILL_READ_TIMEOUT_SECONDS` and `QFILL_READ_MEMORY_MB` (or their defaults). */
export function readLimitsFromEnv(env: Env = process.env): Partial<ReadLimits> {
  const c = readConfig(env, ['QFILL_READ_TIMEOUT_SECONDS', 'QFILL_READ_MEMORY_MB']);
  return { timeoutMs: c.QFILL_READ_TIMEOUT_SECONDS * 1000, memoryMb: c.QFILL_READ_MEMORY_MB };
}

export const megabytes = (bytes: number): string => `${Math.round((bytes / MB) * 10) / 10} MB`;

export function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
