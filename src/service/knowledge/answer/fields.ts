/**
 * Field-like prompts ("Product Name", "Vendor Contact Email", "Date") ask for a fact about one
 * questionnaire's subject rather than about the security programme. Another questionnaire's value may
 * belong to another product or another year, and a document sentence is rarely the value itself, so
 * such answers are never trusted without a person's look.
 */

export type InstanceField = 'date' | 'version' | 'link' | 'contact' | 'name' | 'description';

/** Longer prompts are real questions ("Do you have a designated contact for incidents?"), not fields. */
const MAX_FIELD_WORDS = 12;

const FIELD_PATTERNS: [InstanceField, RegExp][] = [
  ['date', /\b(date|dated|as of)\b/],
  ['version', /\b(version|release)\b/],
  ['link', /\b(url|urls|link|links|website|web site|webpage|web page|hyperlink)\b/],
  ['contact', /\b(contact|contacts|e-?mail|phone|telephone|fax|mailing address|address)\b/],
  ['name', /\b(name|names|title|titles)\b/],
  ['description', /\b(description|overview)\b/],
];

/** The kind of questionnaire-specific value a short field-like prompt asks for, or null. */
export function instanceField(question: string): InstanceField | null {
  const text = question
    .toLowerCase()
    .replace(/^\s*[\w&.-]+\s*[:.)]\s+/, '')
    .replace(/[’]/g, "'");
  const words = text.match(/[\p{L}\p{N}'-]+/gu) ?? [];
  if (words.length === 0 || words.length > MAX_FIELD_WORDS) return null;
  // A Yes/No question about a contact or a name is about a practice, not a field to copy.
  if (/^(do|does|did|is|are|was|were|has|have|had|can|could|will|would|shall|should|may|must)\b/.test(text)) return null;
  for (const [kind, pattern] of FIELD_PATTERNS) if (pattern.test(text)) return kind;
  return null;
}

const DESCRIBED: Record<InstanceField, string> = {
  date: 'a date',
  version: 'a version',
  link: 'a link',
  contact: 'contact details',
  name: 'a name',
  description: 'a description',
};

export function describeField(kind: InstanceField): string {
  return DESCRIBED[kind];
}
