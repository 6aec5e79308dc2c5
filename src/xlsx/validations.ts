/** A worksheet's data validations (dropdowns), classic and the x14 extension-list ones most libraries drop. */
import { parseSqref, type Range } from './ranges';
import type { SheetLayout } from './sheet-scan';
import { decodeEntities, elements, firstElement } from './xml';

export interface DataValidation {
  ranges: Range[];
  /** `list`, `whole`, `decimal`, `date`, ... as written; `any` when absent. */
  type: string;
  /** formula1 as written (inline list in quotes, a reference, a defined name or a formula). */
  formula1: string;
}

/** The validations of a sheet, in document order (later ones win where they overlap, as in Excel). */
export function sheetValidations(xml: string, layout: Pick<SheetLayout, 'dataClose' | 'dataOpenEnd'>): DataValidation[] {
  const tail = xml.slice(layout.dataClose >= 0 ? layout.dataClose : layout.dataOpenEnd);
  return elements(tail, 'dataValidation').map((dv) => {
    // x14 validations keep formula1 in <xm:f> and the cells in <xm:sqref>; classic ones in an attribute.
    const f1 = firstElement(dv.inner, 'formula1')?.inner ?? '';
    const formula1 = firstElement(f1, 'f')?.inner ?? f1;
    const sqref = dv.attrs.get('sqref') ?? firstElement(dv.inner, 'sqref')?.inner ?? '';
    return { ranges: parseSqref(decodeEntities(sqref)), type: dv.attrs.get('type') ?? 'any', formula1: decodeEntities(formula1).trim() };
  });
}
