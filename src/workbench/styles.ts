/** Workbench chrome: an Excel-like grid beside a task-pane-sized column, light or dark with the simulated Office theme. */
export const WORKBENCH_CSS = `
html, body { margin: 0; height: 100%; }
.wb-root {
  --wb-bg: #ffffff; --wb-fg: #201f1e; --wb-border: #e1dfdd; --wb-edge: #c8c6c4; --wb-head-bg: #f3f2f1; --wb-head-fg: #605e5c;
  --wb-namebox-bg: #faf9f8; --wb-bar: #217346; --wb-bar-fg: #ffffff; --wb-accent: #217346; --wb-formula: #0f6cbd;
  --wb-error-bg: #fde7e9; --wb-error-fg: #a4262c;
  display: flex; flex-direction: column; height: 100vh; font-family: "Segoe UI", system-ui, -apple-system, sans-serif; font-size: 13px;
  color: var(--wb-fg); background: var(--wb-bg); color-scheme: light;
}
.wb-root[data-theme="dark"] {
  --wb-bg: #1f1f1f; --wb-fg: #e8e8e8; --wb-border: #3b3b3b; --wb-edge: #4a4a4a; --wb-head-bg: #2b2b2b; --wb-head-fg: #c8c8c8;
  --wb-namebox-bg: #262626; --wb-bar: #0e4d2a; --wb-bar-fg: #ffffff; --wb-accent: #5fc38a; --wb-formula: #7cb8f2;
  --wb-error-bg: #3b2022; --wb-error-fg: #ff99a4;
  color-scheme: dark;
}
.wb-toolbar { display: flex; gap: 8px; align-items: center; padding: 6px 10px; background: var(--wb-bar); color: var(--wb-bar-fg); flex-wrap: wrap; }
.wb-button { background: #fff; color: #217346; border: 0; border-radius: 2px; padding: 4px 10px; cursor: pointer; font: inherit; }
.wb-root[data-theme="dark"] .wb-button { background: #2b2b2b; color: #e8e8e8; }
.wb-button:disabled { opacity: .6; cursor: default; }
.wb-theme select { font: inherit; }
.wb-status { margin-left: 8px; opacity: .9; }
.wb-kept { margin-left: auto; opacity: .9; }
.wb-stats { margin-left: 8px; opacity: .8; }
.wb-error { margin: 0; padding: 6px 10px; background: var(--wb-error-bg); color: var(--wb-error-fg); }
.wb-main { flex: 1; display: flex; min-height: 0; }
.wb-workbook { flex: 1; min-width: 0; display: flex; flex-direction: column; border-right: 1px solid var(--wb-edge); }
.wb-sheet { display: flex; flex-direction: column; height: 100%; }
.wb-namebox { display: flex; gap: 12px; padding: 4px 8px; border-bottom: 1px solid var(--wb-border); background: var(--wb-namebox-bg); }
.wb-namebox span:first-child { min-width: 12em; font-weight: 600; }
.wb-formula-bar { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.wb-scroll { flex: 1; overflow: auto; }
.wb-grid { border-collapse: collapse; table-layout: fixed; }
.wb-grid th { background: var(--wb-head-bg); color: var(--wb-head-fg); font-weight: 400; border: 1px solid var(--wb-border); padding: 0 4px; position: sticky; top: 0; z-index: 2; }
.wb-grid td { position: relative; z-index: 0; scroll-margin: 24px 0 0 48px; } /* a cell brought into view clears the sticky headers */
.wb-grid th.wb-rowhead { position: sticky; left: 0; text-align: right; }
.wb-cell { border: 1px solid var(--wb-border); padding: 1px 4px; min-width: 80px; max-width: 320px; height: 20px; vertical-align: top; white-space: pre-wrap; overflow: hidden; cursor: cell; position: relative; }
.wb-editor { position: absolute; inset: 0; width: 100%; min-height: 100%; box-sizing: border-box; margin: 0; padding: 1px 4px; border: 2px solid var(--wb-accent);
  font: inherit; color: var(--wb-fg); background: var(--wb-bg); resize: none; overflow: hidden; z-index: 1; }
.wb-cell-problem { margin: 0; padding: 4px 8px; background: var(--wb-error-bg); color: var(--wb-error-fg); }
.wb-scroll:focus { outline: none; }
.wb-scroll:focus .wb-selected { outline-width: 3px; }
.wb-formula { color: var(--wb-formula); }
.wb-selected { outline: 2px solid var(--wb-accent); outline-offset: -2px; }
.wb-note { position: absolute; top: 0; right: 0; border-style: solid; border-width: 0 6px 6px 0; border-color: transparent #c50f1f transparent transparent; }
.wb-tabs { display: flex; gap: 2px; padding: 2px 8px; background: var(--wb-head-bg); border-top: 1px solid var(--wb-edge); overflow-x: auto; }
.wb-tab { border: 0; background: transparent; color: var(--wb-fg); padding: 4px 12px; cursor: pointer; font: inherit; white-space: nowrap; }
.wb-tab-active { background: var(--wb-bg); color: var(--wb-accent); font-weight: 600; border-bottom: 2px solid var(--wb-accent); }
.wb-pane { width: 360px; flex: none; overflow: auto; }
`;
