/**
 * The planner the Excel adapter writes with: `planFillWithMarks` (src/fill/plan-marks.ts) places the
 * marks of answers given by an "x" and reads a blank template's pre-filled defaults as empty. It is
 * loaded on demand, in its own chunk: the task pane's first paint has to stay under its budget
 * (test/bundle-size.test.ts), and nothing is planned before the answers are in.
 */
export type MarkPlanner = typeof import('../fill/plan-marks');

let loading: Promise<MarkPlanner> | null = null;

export function loadPlanner(): Promise<MarkPlanner> {
  loading ??= import(/* webpackChunkName: "planner" */ '../fill/plan-marks').catch((e: unknown) => {
    loading = null; // offline for a moment: the next fill tries again
    throw e;
  });
  return loading;
}
