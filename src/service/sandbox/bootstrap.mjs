// Entry of a reader worker thread. The service runs from TypeScript source through tsx (`npx qfill`,
// `npm start`, vitest), and a worker does not inherit the loader of the thread that started it:
// register tsx here, then load the TypeScript body.
//
// pdf.js is loaded first, by Node itself: it is plain JavaScript, and through tsx's loader its two
// multi-megabyte modules cost about 350 MB more per worker. `pdf.worker.mjs` sets `globalThis.pdfjsWorker`,
// which pdf.js then runs in this thread instead of importing it again.
import { register } from 'tsx/esm/api';

await import('pdfjs-dist/legacy/build/pdf.mjs');
await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
register();
await import('./worker-main.ts');
