/** Workbench chrome: an Excel-like grid beside a task-pane-sized column. */
export const WORKBENCH_CSS = `
html, body { margin: 0; height: 100%; }
.wb-root { display: flex; flex-direction: column; height: 100vh; font-family: "Segoe UI", system-ui, -apple-system, sans-serif; font-size: 13px; color: #201f1e; }
.wb-toolbar { display: flex; gap: 8px; align-items: center; padding: 6px 10px; background: #217346; color: #fff; }
.wb-button { background: #fff; color: #217346; border: 0; border-radius: 2px; padding: 4px 10px; cursor: pointer; font: inherit; }
.wb-button:disabled { opacity: .6; cursor: default; }
.wb-status { margin-left: 8px; opacity: .9; }
.wb-stats { margin-left: auto; opacity: .8; }
.wb-error { margin: 0; padding: 6px 10px; background: #fde7e9; color: #a4262c; }
.wb-main { flex: 1; display: flex; min-height: 0; }
.wb-workbook { flex: 1; min-width: 0; display: flex; flex-direction: column; border-right: 1px solid #c8c6c4; }
.wb-sheet { display: flex; flex-direction: column; height: 100%; }
.wb-namebox { display: flex; gap: 12px; padding: 4px 8px; border-bottom: 1px solid #e1dfdd; background: #faf9f8; }
.wb-namebox span:first-child { min-width: 12em; font-weight: 600; }
.wb-formula-bar { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.wb-scroll { flex: 1; overflow: auto; }
.wb-grid { border-collapse: collapse; table-layout: fixed; }
.wb-grid th { background: #f3f2f1; color: #605e5c; font-weight: 400; border: 1px solid #e1dfdd; padding: 0 4px; position: sticky; top: 0; z-index: 2; }
.wb-grid td { position: relative; z-index: 0; }
.wb-grid th.wb-rowhead { position: sticky; left: 0; text-align: right; }
.wb-cell { border: 1px solid #e1dfdd; padding: 1px 4px; min-width: 80px; max-width: 320px; height: 20px; vertical-align: top; white-space: pre-wrap; overflow: hidden; cursor: cell; position: relative; }
.wb-formula { color: #0f6cbd; }
.wb-selected { outline: 2px solid #217346; outline-offset: -2px; }
.wb-note { position: absolute; top: 0; right: 0; border-style: solid; border-width: 0 6px 6px 0; border-color: transparent #c50f1f transparent transparent; }
.wb-tabs { display: flex; gap: 2px; padding: 2px 8px; background: #f3f2f1; border-top: 1px solid #c8c6c4; overflow-x: auto; }
.wb-tab { border: 0; background: transparent; padding: 4px 12px; cursor: pointer; font: inherit; white-space: nowrap; }
.wb-tab-active { background: #fff; color: #217346; font-weight: 600; border-bottom: 2px solid #217346; }
.wb-pane { width: 360px; flex: none; overflow: auto; }
`;
