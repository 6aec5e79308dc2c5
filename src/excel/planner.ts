/**
 * The planner the Excel adapter writes with: `planFillWithMarks` (src/fill/plan-marks.ts) places the
 * marks of answers given by an "x" and reads a blank template's pre-filled defaults as empty. Loaded on
 * demand: nothing is planned before the answers are in.
 */
import { onDemand } from '../fill/on-demand';

export type MarkPlanner = typeof import('../fill/plan-marks');

export const loadPlanner: () => Promise<MarkPlanner> = onDemand(() => import(/* webpackChunkName: "planner" */ '../fill/plan-marks'));
