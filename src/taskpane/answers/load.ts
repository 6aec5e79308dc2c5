/**
 * The Answers view, fetched the first time an analyst opens it: most never do on a given day.
 */
import { onDemand } from '../../fill/on-demand';

export type AnswersModule = typeof import('./AnswersView');

export const loadAnswersView: () => Promise<AnswersModule> = onDemand(() => import(/* webpackChunkName: "answers" */ './AnswersView'));
