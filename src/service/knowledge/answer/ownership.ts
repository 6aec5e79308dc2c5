/**
 * Whose statement a piece of evidence is, at answer time. A file whose subject (see extract/subject.ts)
 * is not one of the organisation's own names is a third party's: it is labelled in every source list
 * ("third party: Amazon Web Services") and may support a statement about that party, never a Yes about
 * the organisation. Auditors' boilerplate and a standard's requirement rows are nobody's answer at all.
 */
import { KNOWN_PROVIDERS, REQUIREMENT_ITEM, TICK } from '../extract/subject';
import type { Candidate } from '../retrieval';

/** What the library knows about a file's subject; null when its text names none. */
export type SubjectOf = (fileId: number) => string | null;

/**
 * The third party a file speaks for, or null when it is the organisation's own (or says nothing).
 * Without configured names only well-known providers count as third parties: guessing who "we" are
 * from the documents would make the first uploaded provider report "us".
 */
export function thirdPartyOf(subject: string | null, ownNames: string[]): string | null {
  if (!subject) return null;
  const s = subject.toLowerCase();
  if (ownNames.some((n) => n.trim() !== '' && (s.includes(n.trim().toLowerCase()) || n.trim().toLowerCase().includes(s)))) return null;
  if (ownNames.length > 0) return subject;
  return KNOWN_PROVIDERS.some(([, provider]) => provider === subject) || subject.includes('requirement text') ? subject : null;
}

export const THIRD_PARTY_LABEL = 'third party: ';

/** Labels third-party evidence in place (`third_party`, and the heading trail every source list shows). */
export function labelOwners(candidates: Candidate[], subjectOf: SubjectOf, ownNames: string[]): Candidate[] {
  for (const c of candidates) {
    if (c.evidence.type !== 'passage' || c.evidence.third_party) continue;
    const party = thirdPartyOf(subjectOf(c.evidence.file_id), ownNames);
    if (!party) continue;
    c.evidence.third_party = party;
    const header = c.evidence.context_header;
    c.evidence.context_header = header ? `${THIRD_PARTY_LABEL}${party} · ${header}` : `${THIRD_PARTY_LABEL}${party}`;
  }
  return candidates;
}

export function isThirdParty(c: Candidate): boolean {
  return !!c.evidence.third_party;
}

/** Auditors' report language: true of any audited company, so it answers nothing about one. */
const BOILERPLATE = [
  /\bStatements? on Quality Control Standards\b/i,
  /\bin our opinion\b/i,
  /\bour (examination|responsibility is to express)\b/i,
  /\bexpress an opinion\b/i,
  /\bwe (are required to be independent|believe that the evidence we (have )?obtained)\b/i,
  /\binherent limitations\b/i,
  /\b(service )?auditor[’']s responsibilities\b/i,
  /\battestation standards established by\b/i,
  /\bperformed procedures to obtain evidence\b/i,
  /\bfairly stated, in all material respects\b/i,
];

/** Why a passage can be no one's answer (auditor boilerplate, matrix rows), or null. */
export function notAnAnswer(c: Candidate): 'auditor boilerplate' | 'requirement matrix rows' | null {
  if (c.evidence.type !== 'passage') return null;
  const text = c.evidence.content;
  if (BOILERPLATE.filter((p) => p.test(text)).length >= 1) return 'auditor boilerplate';
  const items = text.match(REQUIREMENT_ITEM)?.length ?? 0;
  const ticks = text.match(TICK)?.length ?? 0;
  if (items >= 2 && ticks >= 2) return 'requirement matrix rows';
  return null;
}
