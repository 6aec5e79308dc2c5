// Entry of a reader worker thread. The service runs from TypeScript source through tsx (`npx qfill`,
// `npm start`, vitest), and a worker does not inherit the loader of the thread that started it:
// register tsx here, then load the TypeScript body.
import { register } from 'tsx/esm/api';

register();
await import('./worker-main.ts');
