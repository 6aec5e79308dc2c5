/**
 * What a fill adds beside its values, wherever it writes (Excel through the add-in, a file through
 * `qfill fill`): a trust colour and a note listing the answer's sources.
 */
import type { CellWrite } from './types';

/** Soft fills by trust: Excel's own Good / Neutral / Bad cell-style colours. */
export const TRUST_FILLS = { high: '#C6EFCE', medium: '#FFEB9C', low: '#FFC7CE' } as const;

/** The text of the note beside a filled cell: its top sources as `filename p.N`. */
export function sourceNoteText(write: Pick<CellWrite, 'sources' | 'trust' | 'score'>): string | null {
  if (write.sources.length === 0) return null;
  const lines = write.sources.map((s) => `${s.filename} p.${s.page_number}`);
  const trust = write.trust ? `\nTrust: ${write.trust}${write.score !== null ? ` (${Math.round(write.score)}/100)` : ''}` : '';
  return `Sources:\n${lines.join('\n')}${trust}`;
}
