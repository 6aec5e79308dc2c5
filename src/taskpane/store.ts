/** The pane's controllers publish their state through the fill session's store (one implementation). */
export { createStore, type Store } from '../fill/session/state';
