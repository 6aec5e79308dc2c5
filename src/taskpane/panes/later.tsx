/** What `src/taskpane/later.ts` loads after the first paint. */
export { ChatPane } from './ChatPane';
export { LibraryPane } from './LibraryPane';
export { ReviewList } from './ReviewList';
export { SaveToLibrary } from './SaveToLibrary';
