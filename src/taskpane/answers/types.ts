/** What the Answers view calls of the client: its answer-library methods (extension "answers.library"). */
import type { LibraryClient } from '../../api/library-client';

export type LibraryApi = Pick<
  LibraryClient,
  | 'list'
  | 'get'
  | 'add'
  | 'edit'
  | 'approve'
  | 'retire'
  | 'restore'
  | 'setReview'
  | 'setSectionReview'
  | 'conflicts'
  | 'settle'
  | 'undoSettle'
  | 'settings'
  | 'setSettings'
>;
