/**
 * Office's theme when Office gives one (`Office.context.officeTheme`: White, Colorful, Dark Gray, Black, with
 * its colours), else the system's light/dark preference. Read by the entry at start and on every change.
 */
import { mutedOn } from './contrast';
import type { Theme } from './types';

export interface OfficeThemeLike {
  bodyBackgroundColor?: string;
  bodyForegroundColor?: string;
  controlBackgroundColor?: string;
  controlForegroundColor?: string;
  isDarkTheme?: boolean;
  /** `Office.ThemeId` (newer hosts): a number of that enum, or its name. */
  themeId?: unknown;
}

/** The enum `Office.ThemeId` as the host defines it (values are numbers in the typings, names in some hosts). */
export type ThemeIdEnum = Partial<Record<'Black' | 'Colorful' | 'DarkGray' | 'White', unknown>>;

/** Relative luminance of a #rrggbb colour, 0 (black) to 1 (white); null when it cannot be read. */
function luminance(hex: string | undefined): number | null {
  const m = hex?.trim().match(/^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i);
  if (!m) return null;
  const [r, g, b] = [m[1], m[2], m[3]].map((h) => parseInt(h!, 16) / 255) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function isColorful(themeId: unknown, ids: ThemeIdEnum | undefined): boolean {
  if (themeId === undefined || themeId === null) return false;
  if (ids && 'Colorful' in ids) return themeId === ids.Colorful;
  return themeId === 'Colorful';
}

export function themeFromOffice(officeTheme: OfficeThemeLike | null | undefined, prefersDark: boolean, ids?: ThemeIdEnum): Theme {
  if (!officeTheme) return { dark: prefersDark, kind: prefersDark ? 'dark' : 'light' };
  const lum = luminance(officeTheme.bodyBackgroundColor);
  const dark = typeof officeTheme.isDarkTheme === 'boolean' ? officeTheme.isDarkTheme : lum !== null ? lum < 0.5 : prefersDark;
  return {
    dark,
    kind: dark ? 'dark' : isColorful(officeTheme.themeId, ids) ? 'colorful' : 'light',
    colors: {
      background: officeTheme.bodyBackgroundColor,
      foreground: officeTheme.bodyForegroundColor,
      controlBackground: officeTheme.controlBackgroundColor,
      controlForeground: officeTheme.controlForegroundColor,
    },
  };
}

/**
 * The CSS variables Office's own colours set on the pane's root: background, text and control colours
 * as Office gives them, and a placeholder colour derived from the control colours so that it reads
 * (4.5:1 or better) on whatever control background the theme has.
 */
export function themeVariables(theme: Theme): Record<string, string> {
  const colors = theme.colors ?? {};
  const style: Record<string, string> = {};
  if (colors.background) style['--qf-bg'] = colors.background;
  if (colors.foreground) style['--qf-fg'] = colors.foreground;
  if (colors.controlBackground) style['--qf-control-bg'] = colors.controlBackground;
  if (colors.controlForeground) style['--qf-control-fg'] = colors.controlForeground;
  const controlText = colors.controlForeground ?? colors.foreground;
  if (colors.controlBackground && controlText) style['--qf-placeholder'] = mutedOn(controlText, colors.controlBackground);
  return style;
}

export type ThemeWindow = Window & { Office?: { context?: { officeTheme?: OfficeThemeLike }; ThemeId?: ThemeIdEnum } };

/** Reads `Office.context.officeTheme` when present (it is not in every host), else `prefers-color-scheme`. */
export function readTheme(win: ThemeWindow): Theme {
  const prefersDark = typeof win.matchMedia === 'function' && win.matchMedia('(prefers-color-scheme: dark)').matches;
  let officeTheme: OfficeThemeLike | undefined;
  try {
    officeTheme = win.Office?.context?.officeTheme;
  } catch {
    officeTheme = undefined; // some hosts throw on access instead of returning undefined
  }
  return themeFromOffice(officeTheme, prefersDark, win.Office?.ThemeId);
}

/**
 * Calls `onChange` whenever the theme may have changed: Office's OfficeThemeChanged event where the host
 * has it (feature-detected), and the system's colour scheme. Returns a function that stops listening.
 */
export function watchTheme(
  win: ThemeWindow & {
    Office?: { EventType?: { OfficeThemeChanged?: unknown }; context?: { document?: { addHandlerAsync?: unknown; removeHandlerAsync?: unknown } } };
  },
  onChange: () => void,
): () => void {
  const stops: (() => void)[] = [];
  const media = typeof win.matchMedia === 'function' ? win.matchMedia('(prefers-color-scheme: dark)') : null;
  if (media?.addEventListener) {
    media.addEventListener('change', onChange);
    stops.push(() => media.removeEventListener('change', onChange));
  }
  const office = win.Office;
  const event = office?.EventType?.OfficeThemeChanged;
  const doc = office?.context?.document as
    | { addHandlerAsync?: (type: unknown, handler: () => void, cb?: (r: unknown) => void) => void; removeHandlerAsync?: (type: unknown, opts: unknown) => void }
    | undefined;
  if (event !== undefined && typeof doc?.addHandlerAsync === 'function') {
    try {
      doc.addHandlerAsync(event, onChange, () => undefined);
      stops.push(() => {
        try {
          doc.removeHandlerAsync?.(event, { handler: onChange });
        } catch {
          /* the host went away */
        }
      });
    } catch {
      /* hosts without the event throw instead of reporting it unsupported: Office reloads the pane on a theme change there */
    }
  }
  return () => stops.forEach((stop) => stop());
}
