import path from 'node:path';

/** Where the global setup builds the add-in (production mode, with the workbench) for the tests. */
export const DIST_DIR = path.resolve('dist');
