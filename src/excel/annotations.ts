/** What a fill adds beside its values: trust colours and a note (or comment) listing the sources. */
import type { CellWrite } from '../fill';
import { OP_OVERHEAD } from './ops';
import type { BatchOp } from './batch';

/** Soft fills by trust: Excel's own Good / Neutral / Bad cell-style colours. */
export const TRUST_FILLS = { high: '#C6EFCE', medium: '#FFEB9C', low: '#FFC7CE' } as const;

export type AnnotationKind = 'note' | 'comment';

/** The text of the note beside a filled cell: its top sources as `filename p.N`. */
export function sourceNoteText(write: Pick<CellWrite, 'sources' | 'trust' | 'score'>): string | null {
  if (write.sources.length === 0) return null;
  const lines = write.sources.map((s) => `${s.filename} p.${s.page_number}`);
  const trust = write.trust ? `\nTrust: ${write.trust}${write.score !== null ? ` (${Math.round(write.score)}/100)` : ''}` : '';
  return `Sources:\n${lines.join('\n')}${trust}`;
}

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
