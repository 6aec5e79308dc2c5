/**
 * What a fill adds beside its values in Excel: the operations that add or remove a note (or comment);
 * the trust colours and the note's text are src/fill/annotations.ts, shared with `qfill fill`.
 */
import { OP_OVERHEAD } from './ops';
import type { BatchOp } from './batch';

export { sourceNoteText, TRUST_FILLS } from '../fill/annotations';

export type AnnotationKind = 'note' | 'comment';

/** Comments are addressed by a sheet-qualified address. */
function qualified(tab: string, address: string): string {
  return `'${tab.replace(/'/g, "''")}'!${address}`;
}

export function addAnnotationOp(tab: string, address: string, text: string, kind: AnnotationKind): BatchOp {
  return {
    bytes: OP_OVERHEAD + text.length,
    cells: [{ tab, address }],
    queue: (context) => {
      if (kind === 'note') context.workbook.worksheets.getItem(tab).notes.add(address, text);
      else context.workbook.comments.add(qualified(tab, address), text);
    },
    split: () => null,
  };
}

export function deleteAnnotationOp(tab: string, address: string, kind: AnnotationKind): BatchOp {
  return {
    bytes: OP_OVERHEAD,
    cells: [{ tab, address }],
    queue: (context) => {
      if (kind === 'note') context.workbook.worksheets.getItem(tab).notes.getItem(address).delete();
      else context.workbook.comments.getItemByCell(qualified(tab, address)).delete();
    },
    split: () => null,
  };
}
