/** Words for the service's document types, formats and statuses, as a person reads them. */
import type { DocumentType } from '../../api/schemas';

export const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1).replace(/_/g, ' ');

/** The spec's document types in words; `qna` and `q_a` are one thing to a person. */
const TYPE_LABELS: Record<DocumentType, string> = {
  questionnaire: 'Questionnaire',
  requirements_sheet: 'Requirements sheet',
  qna: 'Q&A',
  q_a: 'Q&A',
  security_questionnaire: 'Security questionnaire',
  security_certificate: 'Certificate or audit report',
  documentation: 'Documentation',
  data_extraction: 'Data extraction',
  template: 'Template',
  unknown: 'Type not known yet',
};
const FORMAT_LABELS: Record<string, string> = { excel: 'Excel', doc: 'Word', docx: 'Word', txt: 'Text', ppt: 'PowerPoint', pptx: 'PowerPoint' };
export const typeLabel = (t: string | undefined) => (t ? ((TYPE_LABELS as Record<string, string>)[t] ?? capitalise(t)) : '');
export const formatLabel = (f: string | undefined) => (f ? (FORMAT_LABELS[f] ?? f.toUpperCase()) : '');

const APPLIED = /^(.+) applied$/;
const NOT_APPLIED = /^its (.+?) not applied \((.+)\); its entries are unapproved$/;

/**
 * The note of the answer library's export uploaded back (`note`: "library export: …"), in plain words,
 * and whether it asks for attention (its decisions were not applied); null for any other note.
 */
export function importNote(note: string | undefined): { text: string; warn: boolean } | null {
  const said = /^library export:\s*(.+?)\.?$/.exec(note ?? '')?.[1];
  if (!said) return null;
  const refused = NOT_APPLIED.exec(said);
  if (refused) {
    return {
      text: `Answer library export: its ${refused[1]} ${refused[1]!.startsWith('1 ') ? 'was' : 'were'} not applied (${refused[2]}), so its answers are in the library unapproved.`,
      warn: true,
    };
  }
  const applied = APPLIED.exec(said);
  return { text: applied ? `Answer library export: ${applied[1]} applied to its answers.` : `Answer library export: ${said}.`, warn: false };
}
