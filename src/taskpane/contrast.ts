/**
 * WCAG contrast between colours, and the colours derived from it: a placeholder that reads (at least
 * 4.5:1) on whatever control background Office's theme gives, and the text colour that reads on a
 * cell's fill. Pure functions of `#rrggbb` strings.
 */

/** WCAG's minimum for normal text. */
export const MIN_TEXT_CONTRAST = 4.5;

function channels(hex: string): [number, number, number] | null {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex.trim());
  return m ? [parseInt(m[1]!, 16), parseInt(m[2]!, 16), parseInt(m[3]!, 16)] : null;
}

/** WCAG relative luminance (sRGB linearised), 0 for black to 1 for white; null for anything but #rrggbb. */
export function relativeLuminance(hex: string): number | null {
  const c = channels(hex);
  if (!c) return null;
  const [r, g, b] = c.map((v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two colours, 1 to 21; NaN when either is not #rrggbb. */
export function contrastRatio(a: string, b: string): number {
  const x = relativeLuminance(a);
  const y = relativeLuminance(b);
  if (x === null || y === null) return Number.NaN;
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

const hex2 = (v: number) => Math.round(v).toString(16).padStart(2, '0');

/**
 * A muted text colour for `background`: the colour between `foreground` and the background closest
 * to the background that still reads at `min` (a placeholder looks secondary but is readable). The
 * foreground itself when even it does not reach `min`.
 */
export function mutedOn(foreground: string, background: string, min = MIN_TEXT_CONTRAST + 0.1): string {
  const fg = channels(foreground);
  const bg = channels(background);
  if (!fg || !bg || contrastRatio(foreground, background) < min) return foreground;
  const mix = (t: number) => `#${fg.map((v, i) => hex2(bg[i]! + (v - bg[i]!) * t)).join('')}`;
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 20; i++) {
    const mid = (lo + hi) / 2;
    if (contrastRatio(mix(mid), background) >= min) hi = mid;
    else lo = mid;
  }
  return mix(hi);
}

/** Black or white, whichever reads better on `fill` (at least 4.58:1 on any colour). */
export function textOnFill(fill: string): string {
  return contrastRatio('#000000', fill) >= contrastRatio('#ffffff', fill) ? '#000000' : '#ffffff';
}
