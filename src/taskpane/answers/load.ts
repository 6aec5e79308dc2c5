/**
 * The Answers view in its own chunk, fetched the first time an analyst opens it: most never do on a
 * given day, and the pane's first paint stays small (test/bundle-size.test.ts).
 */
export type AnswersModule = typeof import('./AnswersView');

let loading: Promise<AnswersModule> | null = null;

export function loadAnswersView(): Promise<AnswersModule> {
  loading ??= import(/* webpackChunkName: "answers" */ './AnswersView').catch((e: unknown) => {
    loading = null; // offline for a moment: the next try fetches again
    throw e;
  });
  return loading;
}
