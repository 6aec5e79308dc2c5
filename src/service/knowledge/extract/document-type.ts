/**
 * Which `document_type` a prose repository file gets: `security_certificate` for SOC reports, ISO/TX-RAMP/FedRAMP
 * certificates, attestations and audit reports, `documentation` for everything else (policies, overviews,
 * architecture). Spreadsheets are typed by the spreadsheet reader, not here.
 *
 * A certificate is recognised by what the document IS, never by what it mentions: an overview saying "we hold a
 * SOC 2 Type II report" stays documentation. Two independent signals qualify a file:
 *  1. its file name or title names a report/certificate ("Canvas LMS SOC 3.pdf", "ISO 27001 Certificate"),
 *     unless the name says it is a policy, overview or other ordinary document about one;
 *  2. its opening pages are dominated by report language: several DISTINCT auditor/registrar formulas
 *     ("Independent Service Auditor's Report", "management's assertion", "certificate of registration", ...)
 *     that an ordinary policy or overview does not use together.
 */
import type { DocumentType } from '../../../api/schemas';
import type { ExtractedPage } from '../types';

export interface DocumentTypeInput {
  filename: string;
  /** The document's own title (front matter, HTML <title>), if any. */
  title?: string;
  pages: ExtractedPage[];
}

/** How many distinct report formulas the opening must contain to count as a report. */
export const REPORT_MARKERS_NEEDED = 3;
/** The opening: the first pages that have text, up to this many characters in all. */
const OPENING_PAGES = 4;
const OPENING_CHARS = 8000;

export function documentTypeOf(input: DocumentTypeInput): DocumentType {
  const names = [input.filename.replace(/\.[A-Za-z0-9]+$/, ''), input.title ?? '', firstHeading(input.pages)];
  if (names.some(namesACertificate)) return 'security_certificate';
  if (reportMarkersIn(openingText(input.pages)).length >= REPORT_MARKERS_NEEDED) return 'security_certificate';
  return 'documentation';
}

/** Words that make a name an ordinary document ABOUT certificates or audits ("SOC 2 Readiness Policy"). */
const ORDINARY_DOCUMENT =
  /\b(polic(y|ies)|procedures?|standards?|overview|architecture|guide(lines?)?|handbook|plan|program(me)?|matrix|questionnaire|faq|readiness|(certificate|key|vendor|risk|incident|change) management|requests?|process|template|checklist|training|whitepaper|white paper|summary)\b/i;

/** Frameworks whose reports or certificates vendors publish. */
const FRAMEWORK =
  /\b(SOC ?[123]|SSAE ?1[68]|ISAE ?340[02]|ISO(\/IEC)? ?(27001|27017|27018|27701|22301|9001)|TX ?RAMP|FedRAMP|StateRAMP|HITRUST|CSA STAR|PCI( DSS)?|Cyber Essentials( Plus)?|C5|CMMC|IRAP|ENS)\b/i;
/** What kind of paper a name says the file is. */
const PAPER = /\b(reports?|certificates?|certification|certified|attestations?|letter|authori[sz]ation|ATO|AOC|ROC)\b/i;
/** Names that are a certificate or report whatever framework they concern. */
const PAPER_ON_ITS_OWN =
  /\b(SOC ?[123]|System and Organi[sz]ation Controls ?[123]|attestation (of compliance|report|letter)|audit(or['’]?s)? (report|opinion|letter)|certificate of (registration|compliance|conformity|conformance|approval|accreditation)|certification letter|bridge letter|auditor['’]?s report)\b/i;

export function namesACertificate(name: string): boolean {
  const normalised = name
    .replace(/[_\-+.]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!normalised || ORDINARY_DOCUMENT.test(normalised)) return false;
  if (PAPER_ON_ITS_OWN.test(normalised)) return true;
  return FRAMEWORK.test(normalised) && PAPER.test(normalised);
}

/**
 * Formulas of auditors' reports, management assertions and certificates. Each is counted once however often it
 * occurs, so a document must use several different ones: repeating "SOC 2 report" ten times is still one.
 */
const REPORT_MARKERS: Array<[string, RegExp]> = [
  [
    'auditor report',
    /\b(independent (service )?auditor['’]?s['’]? report|independent accountants?['’]? report|report of independent (registered public accounting firm|auditors?|accountants?))\b/i,
  ],
  ['management assertion', /\b(management['’]?s['’]? (report of its )?assertions?|assertion (of|by) (\w+ ){0,4}management|\w+['’]s assertion\b)/i],
  ['examination', /\bwe have (examined|audited|assessed)\b|\bour examination\b/i],
  ['opinion', /\b(in our opinion|express an opinion|qualified opinion|unqualified opinion)\b/i],
  ['attestation standards', /\b(attestation standards|AICPA|ISAE ?3000|SSAE ?1[68]|AT-C (sections? )?\d{3})\b/i],
  ['complementary controls', /\bcomplementary (user entity|subservice organi[sz]ation) controls\b/i],
  ['criteria', /\b(trust services criteria|description criteria)\b/i],
  ['report period', /\b(for the period|throughout the period|as of) \w+ \d{1,2}, \d{4}\b/i],
  ['certificate of', /\bcertificate of (registration|compliance|conformity|conformance|approval|accreditation)\b|\battestation of compliance\b/i],
  ['certify', /\b(this is to certify|hereby certif(y|ies)|is certified (to|as|under)|has been (assessed|audited) and (found|certified))\b/i],
  [
    'certificate details',
    /\b(certificate (number|no\.?|granted|issued)|certification (expiration|date|level|number)|date of (issue|certification)|valid (until|through)|expiry date)\b/i,
  ],
  ['certification body', /\b(accredited certification body|registrar|accreditation body|certification body|qualified security assessor|3PAO)\b/i],
  ['report title', /\b(SOC ?[123]|System and Organi[sz]ation Controls ?[123])( \(SOC ?[123]\))?( type (1|2|I|II))? report\b/i],
];

export function reportMarkersIn(text: string): string[] {
  return REPORT_MARKERS.filter(([, pattern]) => pattern.test(text)).map(([name]) => name);
}

function openingText(pages: ExtractedPage[]): string {
  const withText = pages.filter((p) => p.text.trim() !== '').slice(0, OPENING_PAGES);
  return withText
    .map((p) => p.text)
    .join('\n')
    .slice(0, OPENING_CHARS);
}

/** A PDF has no metadata title here; its first heading is what a reader takes for one. */
function firstHeading(pages: ExtractedPage[]): string {
  const first = pages.find((p) => p.text.trim() !== '');
  return first?.blocks?.find((b) => b.level > 0)?.text ?? '';
}
