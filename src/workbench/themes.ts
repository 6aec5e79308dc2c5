/** The Office themes the workbench can show the pane (and itself) in. */
import type { OfficeThemeLike } from '../taskpane/theme';

/**
 * Office's themes as `Office.context.officeTheme` reports them, so the workbench can show the pane (and
 * itself) in each; "system" gives no Office theme, as a host without one, and the pane follows the system.
 */
export const THEME_IDS = { Black: 0, Colorful: 1, DarkGray: 2, White: 3 };
export const SIMULATED_THEMES: Record<string, { label: string; office: OfficeThemeLike | null }> = {
  system: { label: 'System', office: null },
  white: {
    label: 'White',
    office: {
      bodyBackgroundColor: '#ffffff',
      bodyForegroundColor: '#262626',
      controlBackgroundColor: '#ffffff',
      controlForegroundColor: '#262626',
      themeId: THEME_IDS.White,
    },
  },
  colorful: {
    label: 'Colorful',
    office: {
      bodyBackgroundColor: '#f3f2f1',
      bodyForegroundColor: '#262626',
      controlBackgroundColor: '#ffffff',
      controlForegroundColor: '#262626',
      themeId: THEME_IDS.Colorful,
    },
  },
  darkGray: {
    label: 'Dark Gray',
    office: {
      bodyBackgroundColor: '#444444',
      bodyForegroundColor: '#ffffff',
      controlBackgroundColor: '#666666',
      controlForegroundColor: '#ffffff',
      themeId: THEME_IDS.DarkGray,
    },
  },
  black: {
    label: 'Black',
    office: {
      bodyBackgroundColor: '#262626',
      bodyForegroundColor: '#ffffff',
      controlBackgroundColor: '#363636',
      controlForegroundColor: '#ffffff',
      themeId: THEME_IDS.Black,
    },
  },
};
