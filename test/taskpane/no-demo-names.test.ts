// The demo questionnaire's company (the workbench's sample) never shows in the real pane: no placeholder or
// example in Settings or Library suggests an analyst's organisation is called that.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const PANE = path.resolve(__dirname, '../../src/taskpane');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const full = path.join(dir, f);
    return statSync(full).isDirectory() ? sources(full) : /\.tsx?$/.test(f) ? [full] : [];
  });
}

describe('no demo names in the pane', () => {
  it("names neither the demo company nor its products anywhere in the pane's code", () => {
    const demo = readFileSync(path.resolve(__dirname, '../../src/workbench/demo-questionnaire.ts'), 'utf8');
    const company = /'(\w+) Learning: vendor security questionnaire'/.exec(demo)?.[1];
    expect(company).toBe('Northwind');
    const found = sources(PANE).filter((f) => readFileSync(f, 'utf8').includes(company!));
    expect(found.map((f) => path.relative(PANE, f))).toEqual([]);
  });
});
