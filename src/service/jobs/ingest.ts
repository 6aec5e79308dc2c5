/**
 * The `ingest_file` job: read a stored upload, extract its text, index it. The file moves
 * submitted -> processing -> ready | failed, with a stage and a rising percent a person can watch.
 *
 * Reading runs in a worker thread within time and memory budgets (`ctx.extract`). A file over a budget
 * fails at once with the reason (reading it again would hang again); a reader that crashed, or a process
 * that died mid-job, gets one more attempt; then the file fails, so a restart never re-runs a poison
 * file into the same hang. A failed file's bytes are removed from disk.
 */
import type { ServiceContext } from '../context';
import { knowledgeFileMeta } from '../domain/file-meta';
import { documentHasText, ExtractError } from '../knowledge/types';
import { SandboxError } from '../sandbox';
import type { JobHandler } from './worker';
import { duplicateStage, sameContentAs } from './duplicate';
import { templateStage } from './template-label';
import { applyLibraryDecisions } from '../domain/library-import';
import { importStage } from './import-note';

/** Claims of one job (each claim counts, including one cut short by a crash) before its file fails. */
export const MAX_INGEST_ATTEMPTS = 2;
const MAX_ATTEMPTS = MAX_INGEST_ATTEMPTS;
/**
 * Files ingested at once by a process: some are read and prepared in reader worker threads while another
 * is written to the index. One at a time, reading and writing took turns and a core idled; two at a
 * time, both files were read together and then written together, and the readers idled while the
 * request thread wrote. A third keeps a reader busy while two files are written (the reader pool's two
 * threads still bound the CPU; a questionnaire goes ahead of the queued file, see the pool). Each file's
 * index writes are transactions of their own, so several files' batches interleave safely.
 */
export const INGEST_CONCURRENCY = 3;

export function ingestFileHandler(ctx: ServiceContext): JobHandler {
  return async (job) => {
    const fileId = Number(job.payload.file_id);
    const file = await ctx.store.files.getAny(fileId);
    if (!file || file.status === 'ready' || file.status === 'failed') return 'done';
    const files = ctx.store.files;
    // A resumed job (after a restart) continues from the percent already shown.
    let percent = file.status === 'processing' ? Math.max(0, Math.min(99, file.processing_percent)) : 0;
    // Progress writes go one after another (the indexer reports progress from a plain callback).
    let writes: Promise<void> = Promise.resolve();
    const progress = (stage: string, value: number): Promise<void> => {
      // Never let the bar go backwards, even when a resumed job starts over.
      percent = Math.max(percent, Math.min(99, Math.round(value)));
      const change = { status: 'processing' as const, processing_stage: stage, processing_percent: percent };
      writes = writes.then(() => files.update(fileId, change));
      return writes;
    };
    const fail = async (reason: string): Promise<void> => {
      await writes.catch(() => undefined);
      // Nothing will ever read a failed upload again; it must not fill the disk. Removed first, so a
      // file shown `failed` has no bytes left.
      await ctx.blobs.remove(file.stored_name);
      await files.update(fileId, { status: 'failed', processing_stage: 'failed', error: reason });
      ctx.metrics?.fileProcessed('failed');
    };
    // Bytes already in the library add no second copy of their evidence (it would be counted twice).
    const original = file.purpose === 'repository' ? await sameContentAs(ctx.store, file) : null;
    if (original) {
      await files.update(fileId, {
        status: 'ready',
        processing_stage: duplicateStage(original),
        processing_percent: 100,
        error: null,
        passage_count: 0,
        qa_count: 0,
      });
      return 'done';
    }
    // Each claim counts an attempt; a file that keeps killing the process must not be retried forever.
    if (job.attempts > MAX_ATTEMPTS) {
      await fail(`processing was interrupted ${job.attempts - 1} times (the service stopped or crashed while reading it); upload the file again to retry`);
      return 'done';
    }

    await progress('reading', 5);
    let source;
    try {
      source = ctx.blobs.source(file.stored_name);
    } catch (error) {
      await fail(`the stored upload could not be read (${error instanceof Error ? error.message : String(error)})`);
      return 'done';
    }

    await progress('extracting text', 10);
    let doc;
    try {
      doc = await ctx.extract(source, file.original_filename);
    } catch (error) {
      if (error instanceof SandboxError && error.failure === 'stopped') return 'interrupted';
      if (error instanceof SandboxError && job.attempts < MAX_ATTEMPTS) throw error;
      const message = error instanceof Error ? error.message : String(error);
      await fail(error instanceof ExtractError ? error.message : `could not read the file (${message})`);
      return 'done';
    }
    if (!documentHasText(doc)) {
      await fail('no readable text found in the file (a scanned PDF needs OCR first)');
      return 'done';
    }
    await files.update(fileId, { file_format: doc.file_format, document_type: doc.document_type });

    await progress('indexing', 30);
    try {
      const counts = await ctx.knowledge.indexDocument(
        knowledgeFileMeta(file),
        doc,
        (p) => void progress('indexing', 30 + (Math.max(0, Math.min(100, p)) * 65) / 100).catch(() => undefined),
      );
      await writes;
      // A template's own label says why nothing of it answers; it is not a reading failure.
      if (counts.passage_count === 0 && counts.qa_count === 0 && !counts.template) {
        // "ready" would promise answers from a file that can never be found.
        await fail('too little text to index: the file has no passage of a few words or more and no question/answer pairs');
        return 'done';
      }
      // A library export's approvals and settlements, applied before the file shows ready.
      const decisions = file.purpose === 'repository' ? doc.library_decisions : undefined;
      const imported = decisions?.length ? await applyLibraryDecisions(ctx, file, decisions) : null;
      await files.update(fileId, {
        status: 'ready',
        processing_stage: imported ? importStage(imported) : counts.template ? templateStage(counts.template) : 'done',
        processing_percent: 100,
        error: null,
        passage_count: counts.passage_count,
        qa_count: counts.qa_count,
        total_embeddings: counts.total_embeddings,
      });
      ctx.metrics?.fileProcessed('ready', counts.passage_count);
    } catch (error) {
      if (error instanceof ExtractError) {
        await fail(error.message);
        return 'done';
      }
      // Possibly transient (an embeddings endpoint down): let the worker retry, then give up visibly.
      if (job.attempts >= MAX_ATTEMPTS) {
        await fail(`indexing failed: ${error instanceof Error ? error.message : String(error)}`);
        return 'done';
      }
      throw error;
    }
    return 'done';
  };
}
