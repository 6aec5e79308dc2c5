/** Merged areas: a slot inside one is written at its top-left cell. */
import { parseA1, parseA1Range, toA1, toA1Range } from '../fill';

/**
 * The areas of a `RangeAreas.address` (`Sheet1!A1:B2, Sheet1!D4:E5`). A comma inside a quoted sheet
 * name (`'Q1, 2024'!A1:B2`) is part of the name, not a separator.
 */
export function splitAreaAddresses(address: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of address) {
    if (ch === "'") quoted = !quoted; // a doubled '' inside a name toggles twice: still quoted
    if (ch === ',' && !quoted) {
      if (current.trim()) out.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

/**
 * Per tab, every non-top-left cell of the merged areas that may hold a target, mapped to its
 * area's top-left cell: one read for all tabs. Excel lists only merges whose top-left cell lies in
 * the range asked about (office-js #3611), so the range runs from A1 to the farthest target: a
 * merge holding a target starts at or above and left of it.
 */
export async function mergeAnchors(
  context: Excel.RequestContext,
  targets: readonly { tab: string; addresses: readonly string[] }[],
  onSync: () => void,
): Promise<Map<string, Map<string, string>>> {
  const areas = targets.map(({ tab, addresses }) => {
    const cs = addresses.map((a) => parseA1(a)!);
    const box = toA1Range(1, 1, Math.max(...cs.map((c) => c.row)), Math.max(...cs.map((c) => c.column)));
    const merged = context.workbook.worksheets.getItem(tab).getRange(box).getMergedAreasOrNullObject();
    merged.load('address');
    return { tab, merged };
  });
  onSync();
  await context.sync();
  const anchors = new Map<string, Map<string, string>>();
  for (const { tab, merged } of areas) {
    if (merged.isNullObject) continue;
    const map = new Map<string, string>();
    for (const part of splitAreaAddresses(merged.address)) {
      const r = parseA1Range(part);
      if (!r) continue;
      for (let i = 0; i < r.rowCount; i++) {
        for (let j = 0; j < r.columnCount; j++) if (i || j) map.set(toA1(r.top + i, r.left + j), toA1(r.top, r.left));
      }
    }
    anchors.set(tab, map);
  }
  return anchors;
}
