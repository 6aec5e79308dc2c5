/** Office's theme when Office gives one, else the system's light/dark preference. Read once by the entry. */
import type { Theme } from './types';

interface OfficeThemeLike {
  bodyBackgroundColor?: string;
  bodyForegroundColor?: string;
  controlBackgroundColor?: string;
  controlForegroundColor?: string;
  isDarkTheme?: boolean;
}

/** Relative luminance of a #rrggbb colour, 0 (black) to 1 (white); null when it cannot be read. */
function luminance(hex: string | undefined): number | null {
  const m = hex?.trim().match(/^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i);
  if (!m) return null;
  const [r, g, b] = [m[1], m[2], m[3]].map((h) => parseInt(h!, 16) / 255) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function themeFromOffice(officeTheme: OfficeThemeLike | null | undefined, prefersDark: boolean): Theme {
  if (!officeTheme) return { dark: prefersDark };
  const lum = luminance(officeTheme.bodyBackgroundColor);
  const dark = typeof officeTheme.isDarkTheme === 'boolean' ? officeTheme.isDarkTheme : lum !== null ? lum < 0.5 : prefersDark;
  return {
    dark,
    colors: {
      background: officeTheme.bodyBackgroundColor,
      foreground: officeTheme.bodyForegroundColor,
      controlBackground: officeTheme.controlBackgroundColor,
      controlForeground: officeTheme.controlForegroundColor,
    },
  };
}

/** Reads `Office.context.officeTheme` when present (it is not in every host), else `prefers-color-scheme`. */
export function readTheme(win: Window & { Office?: { context?: { officeTheme?: OfficeThemeLike } } }): Theme {
  const prefersDark = typeof win.matchMedia === 'function' && win.matchMedia('(prefers-color-scheme: dark)').matches;
  let officeTheme: OfficeThemeLike | undefined;
  try {
    officeTheme = win.Office?.context?.officeTheme;
  } catch {
    officeTheme = undefined; // some hosts throw on access instead of returning undefined
  }
  return themeFromOffice(officeTheme, prefersDark);
}
