/**
 * (Comments stay out of the CSS string, which ships as is. Office's Colorful theme gives the tab bar Excel's
 * colour, as Office's own title bar; scrolled-to content keeps clear of the sticky tab bar; a label styled as a
 * button around a visually hidden input, the file picker, shows that input's keyboard focus.)
 *
 * The task pane's look: Fluent-like (Segoe UI, Office blue, compact spacing), light and dark through CSS
 * variables, usable from 300 px wide. One string injected once into a <style>, so no CSS loader is needed.
 */
export const TASKPANE_CSS = `
.qf-root {
  --qf-bg: #ffffff; --qf-fg: #242424; --qf-muted: #616161; --qf-border: #d1d1d1; --qf-subtle: #f5f5f5;
  --qf-control-bg: #ffffff; --qf-control-fg: #242424; --qf-placeholder: #6e6e6e;
  --qf-accent: #0f6cbd; --qf-accent-hover: #115ea3; --qf-accent-fg: #ffffff;
  --qf-danger: #b10e1c; --qf-danger-bg: #fdf3f4; --qf-warn: #835b00; --qf-warn-bg: #fff9f5;
  --qf-ok: #0e700e; --qf-ok-bg: #f1faf1; --qf-focus: #000000;
  --qf-trust-high: #0e700e; --qf-trust-medium: #835b00; --qf-trust-low: #b10e1c;
  font-family: "Segoe UI", "Segoe UI Web (West European)", -apple-system, BlinkMacSystemFont, Roboto, "Helvetica Neue", sans-serif;
  font-size: 13px; line-height: 1.4; color: var(--qf-fg); background: var(--qf-bg);
  min-width: 280px; min-height: 100vh; box-sizing: border-box; display: flex; flex-direction: column;
  color-scheme: light; accent-color: var(--qf-accent);
}
.qf-root[data-theme="dark"] {
  --qf-bg: #292929; --qf-fg: #ffffff; --qf-muted: #c7c7c7; --qf-border: #525252; --qf-subtle: #1f1f1f;
  --qf-control-bg: #1f1f1f; --qf-control-fg: #ffffff; --qf-placeholder: #adadad;
  --qf-accent: #82bcf8; --qf-accent-hover: #a3cdf9; --qf-accent-fg: #000000;
  --qf-danger: #ff99a4; --qf-danger-bg: #3b2022; --qf-warn: #fde300; --qf-warn-bg: #3a3200;
  --qf-ok: #9fd89f; --qf-ok-bg: #1f3a1f; --qf-focus: #ffffff;
  --qf-trust-high: #9fd89f; --qf-trust-medium: #fde300; --qf-trust-low: #ff99a4;
  color-scheme: dark;
}
.qf-root[data-office-theme="colorful"] .qf-tabs { background: #107c41; border-bottom-color: #0b5a2f; }
.qf-root[data-office-theme="colorful"] .qf-tab { color: #e6f2eb; }
.qf-root[data-office-theme="colorful"] .qf-tab[aria-selected="true"] { color: #ffffff; border-bottom-color: #ffffff; }
.qf-root[data-office-theme="colorful"] .qf-tab:hover { background: #0e6b38; color: #ffffff; }
.qf-root *, .qf-root *::before, .qf-root *::after { box-sizing: border-box; }
.qf-root h2 { font-size: 15px; font-weight: 600; margin: 4px 0 8px; }
.qf-root h3 { font-size: 13px; font-weight: 600; margin: 12px 0 4px; }
.qf-root p { margin: 4px 0; }
.qf-muted { color: var(--qf-muted); }
.qf-small { font-size: 12px; }
.qf-tabs { display: flex; border-bottom: 1px solid var(--qf-border); position: sticky; top: 0; background: var(--qf-bg); z-index: 1; }
.qf-tab { flex: 1 1 0; min-width: 0; padding: 8px 4px; border: 0; background: none; color: var(--qf-muted);
  font: inherit; cursor: pointer; border-bottom: 2px solid transparent; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.qf-tab[aria-selected="true"] { color: var(--qf-fg); font-weight: 600; border-bottom-color: var(--qf-accent); }
.qf-tab:hover { color: var(--qf-fg); background: var(--qf-subtle); }
.qf-panel { padding: 10px 12px 16px; flex: 1 1 auto; }
.qf-root section, .qf-root article, .qf-root ol, .qf-anchor { scroll-margin-top: 44px; }
.qf-root :focus-visible { outline: 2px solid var(--qf-focus); outline-offset: 1px; }
.qf-root label:has(> .qf-sr:focus-visible) { outline: 2px solid var(--qf-focus); outline-offset: 1px; }
.qf-btn { font: inherit; padding: 4px 12px; min-height: 28px; border-radius: 4px; border: 1px solid var(--qf-border);
  background: var(--qf-control-bg); color: var(--qf-control-fg); cursor: pointer; }
.qf-btn:hover:not(:disabled) { background: var(--qf-subtle); }
.qf-btn:disabled { opacity: .5; cursor: not-allowed; }
.qf-root[data-theme="dark"] .qf-btn-primary:disabled { opacity: .4; }
.qf-btn-primary { background: var(--qf-accent); border-color: var(--qf-accent); color: var(--qf-accent-fg); font-weight: 600; }
.qf-btn-primary:hover:not(:disabled) { background: var(--qf-accent-hover); }
.qf-btn-wide { width: 100%; min-height: 32px; }
.qf-link { font: inherit; border: 0; background: none; color: var(--qf-accent); cursor: pointer; padding: 0; text-align: left; }
.qf-link:hover { text-decoration: underline; }
.qf-row { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; margin: 6px 0; }
.qf-grow { flex: 1 1 120px; min-width: 0; }
.qf-field { display: flex; flex-direction: column; gap: 2px; margin: 6px 0; }
.qf-field > span, .qf-label { font-weight: 600; font-size: 12px; }
.qf-filters { display: grid; grid-template-columns: repeat(auto-fill, minmax(128px, 1fr)); gap: 6px; align-items: center; margin: 6px 0; }
.qf-filters .qf-select { width: 100%; }
.qf-filters .qf-check { margin: 0; }
.qf-input, .qf-select, .qf-textarea { font: inherit; padding: 4px 6px; border: 1px solid var(--qf-border); border-radius: 4px;
  background: var(--qf-control-bg); color: var(--qf-control-fg); min-height: 28px; width: 100%; }
.qf-root ::placeholder { color: var(--qf-placeholder); opacity: 1; }
.qf-select { width: auto; max-width: 100%; }
.qf-textarea { resize: vertical; min-height: 56px; }
.qf-check { display: flex; gap: 6px; align-items: flex-start; margin: 4px 0; }
.qf-check input { margin-top: 3px; }
fieldset.qf-fieldset { border: 1px solid var(--qf-border); border-radius: 4px; padding: 4px 8px 6px; margin: 8px 0; }
fieldset.qf-fieldset legend { font-weight: 600; font-size: 12px; padding: 0 4px; }
.qf-msg { border-radius: 4px; padding: 6px 8px; margin: 6px 0; border: 1px solid transparent; overflow-wrap: anywhere; }
.qf-msg-error { background: var(--qf-danger-bg); color: var(--qf-danger); border-color: var(--qf-danger); }
.qf-msg-warn { background: var(--qf-warn-bg); color: var(--qf-warn); border-color: var(--qf-warn); }
.qf-msg-ok { background: var(--qf-ok-bg); color: var(--qf-ok); border-color: var(--qf-ok); }
.qf-msg-info { background: var(--qf-subtle); }
.qf-lead { font-weight: 600; }
.qf-details { margin-top: 4px; font-size: 12px; }
.qf-details > summary { cursor: pointer; color: inherit; opacity: .85; }
.qf-details code { display: block; color: var(--qf-muted); font-size: 11px; overflow-wrap: anywhere; white-space: pre-wrap; }
.qf-progress { width: 100%; height: 6px; accent-color: var(--qf-accent); }
.qf-steps { list-style: none; padding: 0; margin: 8px 0; }
.qf-steps li { padding: 3px 0 3px 20px; position: relative; }
.qf-steps li::before { position: absolute; left: 2px; content: "○"; color: var(--qf-muted); }
.qf-steps li[data-state="active"]::before { content: "◐"; color: var(--qf-accent); }
.qf-steps li[data-state="done"]::before { content: "✓"; color: var(--qf-ok); }
.qf-steps li[data-state="failed"]::before { content: "✕"; color: var(--qf-danger); }
.qf-steps li[data-state="pending"] { color: var(--qf-muted); }
.qf-scroll { overflow-x: auto; }
.qf-table { width: 100%; border-collapse: collapse; font-size: 12px; }
.qf-table th, .qf-table td { text-align: left; padding: 3px 4px; border-bottom: 1px solid var(--qf-border); vertical-align: top; }
.qf-table td.qf-num, .qf-table th.qf-num { text-align: right; }
.qf-list { list-style: none; margin: 4px 0; padding: 0; }
.qf-list > li { border-bottom: 1px solid var(--qf-border); padding: 6px 2px; overflow-wrap: anywhere; }
.qf-q { display: block; width: 100%; text-align: left; font: inherit; color: inherit; background: none; border: 0; padding: 4px; cursor: pointer; border-radius: 4px; }
.qf-q:hover { background: var(--qf-subtle); }
.qf-q[aria-current="true"] { background: var(--qf-subtle); box-shadow: inset 3px 0 0 var(--qf-accent); }
.qf-badge { display: inline-block; font-size: 11px; padding: 0 6px; border-radius: 8px; border: 1px solid currentColor; white-space: nowrap; }
.qf-trust-high { color: var(--qf-trust-high); }
.qf-trust-medium { color: var(--qf-trust-medium); }
.qf-trust-low { color: var(--qf-trust-low); }
.qf-card { border: 1px solid var(--qf-border); border-radius: 4px; padding: 8px; margin: 8px 0; background: var(--qf-bg); }
.qf-answer { white-space: pre-wrap; overflow-wrap: anywhere; }
.qf-more { margin: 6px 0; }
.qf-more > summary, .qf-correct > summary { cursor: pointer; font-size: 12px; font-weight: 600; padding: 2px 0; }
.qf-correct { margin-top: 8px; border-top: 1px solid var(--qf-border); padding-top: 6px; }
.qf-sources summary { cursor: pointer; color: var(--qf-muted); font-size: 12px; margin-top: 4px; }
.qf-sources ol { margin: 4px 0; padding-left: 18px; }
.qf-sources li { margin: 4px 0; }
.qf-excerpt { display: block; color: var(--qf-muted); font-size: 12px; white-space: pre-wrap; overflow-wrap: anywhere; }
.qf-chat-log { display: flex; flex-direction: column; gap: 6px; margin: 8px 0; }
.qf-bubble { border-radius: 6px; padding: 6px 8px; max-width: 100%; }
.qf-bubble-user { background: var(--qf-subtle); align-self: flex-end; white-space: pre-wrap; overflow-wrap: anywhere; }
.qf-bubble-assistant { border: 1px solid var(--qf-border); }
.qf-drop { border: 1px dashed var(--qf-border); border-radius: 4px; padding: 12px; text-align: center; margin: 6px 0; }
.qf-drop[data-over="true"] { border-color: var(--qf-accent); background: var(--qf-subtle); }
.qf-sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.qf-pager { display: flex; gap: 6px; align-items: center; justify-content: space-between; margin: 6px 0; }
`;

const STYLE_ID = 'qf-taskpane-style';

/** Adds the stylesheet once per document; later calls are no-ops. */
export function injectStyles(doc: Document): void {
  if (doc.getElementById(STYLE_ID)) return;
  const style = doc.createElement('style');
  style.id = STYLE_ID;
  style.textContent = TASKPANE_CSS;
  doc.head.appendChild(style);
}
