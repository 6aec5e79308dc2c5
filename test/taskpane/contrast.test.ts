// Readable in every Office theme: contrast ratios computed from the pane's own theme tokens (styles.ts) with
// Office's colours applied as the pane applies them (theme.ts), for White, Colorful, Dark Gray, Black and the
// system's light and dark; placeholders included (they were 1.3:1 and 2.6:1 in Dark Gray and Black).
import { describe, expect, it } from 'vitest';
import { contrastRatio, MIN_TEXT_CONTRAST, mutedOn, relativeLuminance, textOnFill } from '../../src/taskpane/contrast';
import { TASKPANE_CSS } from '../../src/taskpane/styles';
import { themeFromOffice, themeVariables } from '../../src/taskpane/theme';
import { SIMULATED_THEMES, THEME_IDS } from '../../src/workbench/themes';

/** The custom properties of the first CSS rule whose selector is exactly `selector`. */
function tokens(css: string, selector: string): Record<string, string> {
  const at = css.indexOf(`${selector} {`);
  if (at < 0) throw new Error(`no rule ${selector}`);
  const body = css.slice(at, css.indexOf('}', at));
  return Object.fromEntries([...body.matchAll(/--qf-([\w-]+):\s*(#[0-9a-fA-F]{6})/g)].map((m) => [m[1]!, m[2]!]));
}

const LIGHT = tokens(TASKPANE_CSS, '.qf-root');
const DARK = { ...LIGHT, ...tokens(TASKPANE_CSS, '.qf-root[data-theme="dark"]') };

function paletteFor(choice: string): Record<string, string> {
  const theme = themeFromOffice(SIMULATED_THEMES[choice]!.office, choice === 'systemDark', THEME_IDS);
  const base = theme.dark ? DARK : LIGHT;
  const office = Object.fromEntries(Object.entries(themeVariables(theme)).map(([k, v]) => [k.replace(/^--qf-/, ''), v]));
  return { ...base, ...office };
}

// Text over background, as the stylesheet pairs them.
const PAIRS: [string, string][] = [
  ['fg', 'bg'],
  ['muted', 'bg'],
  ['muted', 'subtle'],
  ['fg', 'subtle'],
  ['control-fg', 'control-bg'],
  ['placeholder', 'control-bg'],
  ['accent', 'bg'],
  ['accent-fg', 'accent'],
  ['danger', 'danger-bg'],
  ['warn', 'warn-bg'],
  ['ok', 'ok-bg'],
  ['trust-high', 'bg'],
  ['trust-medium', 'bg'],
  ['trust-low', 'bg'],
];

describe('contrast of the task pane in every Office theme', () => {
  for (const choice of ['white', 'colorful', 'darkGray', 'black', 'system', 'systemDark']) {
    it(`${choice}: every text colour reads at ${MIN_TEXT_CONTRAST}:1 or better on its background`, () => {
      const palette = paletteFor(choice === 'systemDark' ? 'system' : choice);
      const p = choice === 'systemDark' ? { ...DARK } : palette;
      const failing = PAIRS.map(([fg, bg]) => ({ pair: `${fg} on ${bg}`, ratio: contrastRatio(p[fg]!, p[bg]!) })).filter(
        (r) => !(r.ratio >= MIN_TEXT_CONTRAST),
      );
      expect(failing).toEqual([]);
    });
  }

  it("Colorful's green tab bar keeps its tab names readable", () => {
    const bar = /data-office-theme="colorful"\] \.qf-tabs \{ background: (#[0-9a-f]{6})/.exec(TASKPANE_CSS)![1]!;
    const tabColours = [...TASKPANE_CSS.matchAll(/data-office-theme="colorful"\] \.qf-tab(?:\[aria-selected="true"\])? \{ color: (#[0-9a-f]{6})/g)].map(
      (m) => m[1]!,
    );
    expect(tabColours.length).toBe(2);
    for (const c of tabColours) expect(contrastRatio(c, bar)).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
  });

  it('derives the placeholder from the control colours: muted, yet 4.5:1 or better', () => {
    for (const [fg, bg] of [
      ['#ffffff', '#666666'],
      ['#ffffff', '#363636'],
      ['#262626', '#ffffff'],
      ['#000000', '#f3f2f1'],
    ] as const) {
      const placeholder = mutedOn(fg, bg);
      expect(contrastRatio(placeholder, bg)).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
      // Nearer the background than the typed text is: it still looks like a placeholder.
      expect(contrastRatio(placeholder, bg)).toBeLessThan(contrastRatio(fg, bg));
    }
    // The colours from the report: 1.3:1 and 2.6:1 before.
    expect(contrastRatio(paletteFor('darkGray').placeholder!, '#666666')).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    expect(contrastRatio(paletteFor('black').placeholder!, '#363636')).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
  });

  it('computes WCAG ratios', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    expect(relativeLuminance('not a colour')).toBeNull();
    expect(textOnFill('#000000')).toBe('#ffffff');
    expect(textOnFill('#FFFF00')).toBe('#000000');
  });
});
