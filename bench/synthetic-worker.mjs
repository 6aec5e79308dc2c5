// A worker thread of the scale bench: makes synthetic documents and their index entries (splitting,
// tokenising, stemming), as the service's reader workers prepare an uploaded file's. The bench runs from
// TypeScript through tsx, and a worker does not inherit the loader of the thread that started it.
import { register } from 'tsx/esm/api';

register();
await import('./synthetic-worker-main.ts');
