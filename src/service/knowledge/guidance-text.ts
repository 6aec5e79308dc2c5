/**
 * Text that addresses the reader of a questionnaire instead of answering it: instructions to the
 * respondent ("Please provide the direct URL to your privacy policy") and guidance for the people who
 * assess the answers ("If the solution provider cannot accommodate …, direct them to NIST"). Templates
 * carry such text in reference sheets, guidance columns and pre-filled answer cells; it is never an
 * organisation's answer, so the library does not learn it.
 *
 * A vendor's own answer may speak to the reader too ("Please see our SOC 2 report"): only asking the
 * respondent for something, or talking about the respondent in the third person, counts as guidance.
 */

/** Requests the respondent is asked to act on; "Please see/refer/note/contact" is how answers point. */
const REQUEST =
  /^(?:please|kindly)\s+(?:provide|describe|explain|list|attach|upload|include|specify|indicate|state|identify|select|choose|enter|answer|complete|fill|confirm|detail|outline|summari[sz]e|submit|share|supply|give|document|elaborate|insert|type|mark|check|tick|respond|ensure)\b/i;

/** Instructions on how to answer: "If yes, describe …", "Select Yes or No", "Enter N/A if …". */
const INSTRUCTION =
  /^(?:if\s+(?:yes|no|so|not|applicable|not applicable|n\/a|answered\s+\w+|you\s+answered|the\s+answer\s+is)\b[\s,]*(?:please\s+)?(?:provide|describe|explain|list|attach|include|specify|indicate|state|identify|give|detail|outline|select|enter|answer|complete|skip|proceed|go|continue|move|upload|submit|share)\b|(?:select|choose)\s+(?:yes|no|one|an?\s+(?:option|answer|value|response)|from|the\s+(?:appropriate|applicable|relevant|best))\b|(?:enter|type)\s+(?:n\/a|na|"n\/a"|your|the)\b|use\s+the\s+drop-?\s*down\b|answer\s+(?:yes|no)\s+(?:if|when)\b)/i;

/** Whom a template's guidance talks about: the respondent as a third party (a vendor's own answer says "we"). */
const RESPONDENT = '(?:solution\\s+provider|respondent|bidder|proposer)s?';

/** Guidance for assessors: conditions on what the respondent does, and what to do then. */
const ASSESSOR_GUIDANCE = [
  new RegExp(`^if\\s+(?:the\\s+|a\\s+)?${RESPONDENT}\\b`, 'i'),
  /^if\s+the\s+(?:vendor|supplier|provider)\s+(?:cannot|can\s*not|can't|does\s+not|doesn't|is\s+(?:not|unable)|answers?|answered|responds?|responded|indicates?|selects?|selected|has\s+not)\b/i,
  new RegExp(`^(?:the\\s+|a\\s+)?${RESPONDENT}\\s+(?:should|must|shall|needs?\\s+to|is\\s+expected\\s+to|is\\s+required\\s+to)\\b`, 'i'),
  new RegExp(`\\b(?:direct|refer|ask|instruct)\\s+the\\s+(?:${RESPONDENT}|institution)\\s+to\\b`, 'i'),
  /^(?:this\s+question|the\s+intent\s+of\s+this\s+question|the\s+purpose\s+of\s+this\s+question|a\s+["“']?(?:yes|no)["”']?\s+(?:answer|response)\s+(?:means|indicates|suggests|should))\b/i,
  /^(?:preferred|expected|ideal|acceptable)\s+(?:answer|response)\b/i,
];

/** True when `text` speaks to the reader of the questionnaire (an instruction or guidance) rather than answering it. */
export function isGuidanceText(text: string | null | undefined): boolean {
  const t = (text ?? '').replace(/\s+/g, ' ').trim();
  if (t === '') return false;
  if (ASSESSOR_GUIDANCE.some((re) => re.test(t))) return true;
  // A request anywhere makes it the template's: "… Please provide the direct URL to your privacy policy."
  return sentences(t).some((s) => REQUEST.test(s) || INSTRUCTION.test(s));
}

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?:;])\s+|\s*\n\s*/)
    .map((s) => s.replace(/^[-•*\d.)\s]+/, '').trim())
    .filter(Boolean);
}
