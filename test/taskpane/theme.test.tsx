// @vitest-environment happy-dom
// Office's theme followed: White, Colorful, Dark Gray and Black as Office reports them, switched while the
// pane is open (OfficeThemeChanged, where the host has it), and the system's scheme when Office gives none.
import { cleanup, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { bootTaskpane } from '../../src/taskpane/boot';
import { themeFromOffice, type OfficeThemeLike } from '../../src/taskpane/theme';
import { MemoryWorkbook } from './memory-workbook';

afterEach(() => {
  cleanup();
  document.body.replaceChildren();
});

// Office.ThemeId as the typings number it.
const ThemeId = { Black: 0, Colorful: 1, DarkGray: 2, White: 3 };
const OFFICE: Record<'white' | 'colorful' | 'darkGray' | 'black', OfficeThemeLike> = {
  white: {
    bodyBackgroundColor: '#ffffff',
    bodyForegroundColor: '#262626',
    controlBackgroundColor: '#ffffff',
    controlForegroundColor: '#262626',
    themeId: ThemeId.White,
  },
  colorful: {
    bodyBackgroundColor: '#f3f2f1',
    bodyForegroundColor: '#262626',
    controlBackgroundColor: '#ffffff',
    controlForegroundColor: '#262626',
    themeId: ThemeId.Colorful,
  },
  darkGray: {
    bodyBackgroundColor: '#444444',
    bodyForegroundColor: '#ffffff',
    controlBackgroundColor: '#666666',
    controlForegroundColor: '#ffffff',
    themeId: ThemeId.DarkGray,
  },
  black: {
    bodyBackgroundColor: '#262626',
    bodyForegroundColor: '#ffffff',
    controlBackgroundColor: '#363636',
    controlForegroundColor: '#ffffff',
    themeId: ThemeId.Black,
  },
};

describe('theme', () => {
  it('reads each Office theme: family, and its colours', () => {
    expect(themeFromOffice(OFFICE.white, true, ThemeId).kind).toBe('light');
    expect(themeFromOffice(OFFICE.colorful, true, ThemeId)).toMatchObject({ dark: false, kind: 'colorful', colors: { background: '#f3f2f1' } });
    expect(themeFromOffice(OFFICE.darkGray, false, ThemeId)).toMatchObject({ dark: true, kind: 'dark' });
    expect(themeFromOffice(OFFICE.black, false, ThemeId)).toMatchObject({ dark: true, kind: 'dark', colors: { controlBackground: '#363636' } });
    // A host that names the theme instead of numbering it; and one that gives no id (colours only).
    expect(themeFromOffice({ ...OFFICE.colorful, themeId: 'Colorful' }, false).kind).toBe('colorful');
    expect(themeFromOffice({ bodyBackgroundColor: '#f3f2f1' }, false).kind).toBe('light');
    expect(themeFromOffice(undefined, false)).toEqual({ dark: false, kind: 'light' });
  });

  it('switches with Office while the pane is open (OfficeThemeChanged), colours and all', async () => {
    const app = document.createElement('div');
    app.id = 'app';
    document.body.append(app);
    localStorage.clear();
    const handlers: (() => void)[] = [];
    const office = {
      HostType: { Excel: 'Excel' },
      ThemeId,
      EventType: { OfficeThemeChanged: 'officeThemeChanged' },
      context: {
        partitionKey: 'pk-theme',
        officeTheme: OFFICE.white,
        document: {
          addHandlerAsync: (type: string, handler: () => void, cb: () => void) => {
            expect(type).toBe('officeThemeChanged');
            handlers.push(handler);
            cb();
          },
        },
      },
      onReady: (cb: (i: { host: unknown; platform: unknown }) => void) => cb({ host: 'Excel', platform: 'PC' }),
    };
    const win = Object.assign(Object.create(window), { Office: office, document, localStorage, location: window.location, matchMedia: undefined }) as Window;
    bootTaskpane(win, {
      createWorkbook: () => new MemoryWorkbook(),
      createClient: () => {
        throw new Error('unused');
      },
    });
    await waitFor(() => expect(screen.getByRole('tablist')).toBeTruthy());
    const root = () => document.querySelector('.qf-root') as HTMLElement;
    expect(root().dataset.officeTheme).toBe('light');
    expect(handlers).toHaveLength(1);

    for (const [name, theme, dark, kind] of [
      ['colorful', OFFICE.colorful, 'light', 'colorful'],
      ['black', OFFICE.black, 'dark', 'dark'],
      ['darkGray', OFFICE.darkGray, 'dark', 'dark'],
      ['white', OFFICE.white, 'light', 'light'],
    ] as const) {
      office.context.officeTheme = theme;
      handlers[0]!();
      await waitFor(() => expect(root().dataset.officeTheme, name).toBe(kind));
      expect(root().dataset.theme).toBe(dark);
      expect(root().style.getPropertyValue('--qf-bg')).toBe(theme.bodyBackgroundColor);
      expect(root().style.getPropertyValue('--qf-control-bg')).toBe(theme.controlBackgroundColor);
    }
    // What was typed survives a theme change: the pane re-renders, it does not restart.
    expect(screen.getByRole('tab', { name: 'Settings' }).getAttribute('aria-selected')).toBe('true');
  });

  it('on a host without the event, follows the system scheme when Office gives no theme', async () => {
    const app = document.createElement('div');
    app.id = 'app';
    document.body.append(app);
    let listener: (() => void) | null = null;
    let dark = false;
    const media = {
      get matches() {
        return dark;
      },
      addEventListener: (_: string, l: () => void) => (listener = l),
      removeEventListener: () => undefined,
    };
    const office = {
      HostType: { Excel: 'Excel' },
      context: {},
      onReady: (cb: (i: { host: unknown; platform: unknown }) => void) => cb({ host: 'Excel', platform: 'OfficeOnline' }),
    };
    const win = Object.assign(Object.create(window), { Office: office, document, localStorage, location: window.location, matchMedia: () => media }) as Window;
    bootTaskpane(win, {
      createWorkbook: () => new MemoryWorkbook(),
      createClient: () => {
        throw new Error('unused');
      },
    });
    await waitFor(() => expect(screen.getByRole('tablist')).toBeTruthy());
    const root = () => document.querySelector('.qf-root') as HTMLElement;
    expect(root().dataset.theme).toBe('light');
    dark = true;
    listener!();
    await waitFor(() => expect(root().dataset.theme).toBe('dark'));
  });
});

describe('the standalone page', () => {
  it('names the ribbon button as the manifest does', async () => {
    const { readFileSync } = await import('node:fs');
    const { NOT_IN_EXCEL } = await import('../../src/taskpane/boot');
    const manifest = readFileSync('manifest.xml', 'utf8');
    const label = (id: string) => new RegExp(`<bt:String id="${id}" DefaultValue="([^"]+)"`).exec(manifest)?.[1];
    expect(label('Button.Label')).toBe('Fill Questionnaire');
    expect(NOT_IN_EXCEL).toContain(`Home tab, ${label('Group.Label')} group, ${label('Button.Label')}`);
    expect(manifest).toMatch(/<OfficeTab id="TabHome">/);
  });
});
