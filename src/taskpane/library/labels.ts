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
