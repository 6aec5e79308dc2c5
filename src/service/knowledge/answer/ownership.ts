/**
 * Whose statement a piece of evidence is, at answer time. A file whose subject (see extract/subject.ts)
 * is not one of the organisation's own names is a third party's: it is labelled in every source list
 * ("third party: Amazon Web Services") and may support a statement about that party, never a Yes about
 * the organisation. Auditors' boilerplate and a standard's requirement rows are nobody's answer at all.
 */
import { KNOWN_PROVIDERS, REQUIREMENT_ITEM, TICK } from '../extract/subject';
import type { Candidate } from '../retrieval';
import { quotableSentences } from './sentences';

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

/** Words of attestations and certificates: whose they are matters, not only whose document lists them. */
const ATTESTATION =
  /\b(?:certif\w*|SOC\s*[123]|ISO(?:\/IEC)?\s*\d{4,5}|attest\w*|accredit\w*|complian\w*|FedRAMP|PCI[- ]DSS|CSA STAR|reports?|audit(?:ed|s)?)\b/i;
/** A list item: a bulleted or numbered line. */
const LIST_ITEM = /^\s*(?:[•*▪◦‣–-]|\d{1,2}[.)])\s/;
const FIRST_PERSON = /\b(?:we|our|us)\b/i;

/** Where the first party a text names is: a provider (which) or the organisation ("we", its names). */
function firstParty(text: string, ownNames: string[]): { provider: string | null; at: number } | null {
  let first: { provider: string | null; at: number } | null = null;
  const consider = (at: number, provider: string | null) => {
    if (at >= 0 && (!first || at < first.at)) first = { provider, at };
  };
  for (const [pattern, provider] of KNOWN_PROVIDERS) {
    if (ownNames.some((n) => n.trim() !== '' && provider.toLowerCase().includes(n.trim().toLowerCase()))) continue;
    consider(text.search(pattern), provider);
  }
  consider(text.search(FIRST_PERSON), null);
  for (const name of ownNames) if (name.trim()) consider(text.toLowerCase().indexOf(name.trim().toLowerCase()), null);
  // "both Canvas' and AWS' security controls have been audited…": the attestations are shared, not the provider's alone.
  const found = first as { provider: string | null; at: number } | null;
  if (found?.provider && /\bboth\s+\S+(?:\s+\S+)?\s*$/i.test(text.slice(Math.max(0, found.at - 40), found.at))) return { provider: null, at: found.at };
  return found;
}

/**
 * The provider whose certifications or reports a sentence of the organisation's own document lists, or
 * null when they are the organisation's (or the sentence lists none). The first party a sentence names is
 * whose they are: "As one of the benefits of utilizing AWS cloud infrastructure, we also benefit from the
 * following security certifications: SOC 1 Type II…" lists Amazon Web Services' reports, quoted in
 * Instructure's document; "Instructure holds the following certifications…" lists Instructure's own. A
 * sentence naming no party ("Some of the many certifications include: …", a bulleted item) is the
 * provider's when the line introducing its list, or the sentence before it, is ("the Amazon Web Services
 * infrastructure on which Impact is hosted has a variety of formal accreditations").
 */
export function providerAttestation(content: string, sentence: string, ownNames: string[]): string | null {
  if (!ATTESTATION.test(sentence)) return null;
  const own = firstParty(sentence, ownNames);
  if (own) return own.provider;
  const sentences = quotableSentences(content).map((s) => s.text);
  const i = sentences.indexOf(sentence);
  // A bulleted item takes its owner from the line that introduces the list.
  const lines = content.split('\n');
  const probe = sentence.slice(0, 40);
  const at = lines.findIndex((l) => l.replace(/\s+/g, ' ').includes(probe));
  if (at >= 0 && LIST_ITEM.test(lines[at]!)) {
    for (let j = at - 1; j >= 0; j--) {
      const line = lines[j]!.trim();
      if (line === '' || LIST_ITEM.test(line)) continue;
      return line.endsWith(':') ? (firstParty(line, ownNames)?.provider ?? null) : null;
    }
  }
  const previous = i > 0 ? sentences[i - 1]! : null;
  return previous && ATTESTATION.test(previous) ? (firstParty(previous, ownNames)?.provider ?? null) : null;
}
