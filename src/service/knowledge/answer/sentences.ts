/**
 * What may be quoted as a sentence. Passages are cut every ~180 words and PDFs break lines anywhere, so
 * the pieces splitSentences returns are not all sentences: "(e.g." ends one piece and the example starts
 * the next, a passage's first piece may start mid-sentence ("end traffic with a source IP…") and its last
 * may stop mid-word ("near real-"). And a form's labels ("Hosting Provider: Applications / software
 * Hardware …") read as one long "sentence" of a blank PCI attestation. None of these states anything:
 * an answer quotes whole sentences only, and never joins pieces into one.
 */
import { splitSentences } from '../text';

/** Abbreviations splitSentences cuts after when a capital follows: "(e.g. ECDHE-…)", "Amazon Inc. and". */
const ABBREVIATION_END = /(?:^|[\s(])(?:e\.g|i\.e|E\.g|I\.e|vs|Inc|Ltd|Corp|No|approx|cf|Fig|al)\.$/;

export interface QuotableSentence {
  text: string;
  /** A whole sentence: it starts as one and ends as one (or is a whole line, as a list item is). */
  whole: boolean;
}

/** The sentences of a passage, abbreviation splits mended, each marked whole or a fragment. */
export function quotableSentences(content: string): QuotableSentence[] {
  const pieces = splitSentences(withListsInline(content));
  const merged: string[] = [];
  for (const piece of pieces) {
    const previous = merged[merged.length - 1];
    if (previous !== undefined && ABBREVIATION_END.test(previous)) merged[merged.length - 1] = `${previous} ${piece}`;
    else merged.push(piece);
  }
  const trimmed = content.trim();
  return merged.map((text, i) => ({ text, whole: isWhole(text, i === 0 && !startsCleanly(trimmed), i === merged.length - 1 && !endsCleanly(trimmed)) }));
}

/** A list item short enough to be a name, not a sentence of its own: no closing punctuation. */
const LIST_ITEM_MAX = 80;
const isListItem = (line: string) => line !== '' && line.length <= LIST_ITEM_MAX && !/[.!?:;]$/.test(line);

/**
 * A lead-in and its short items as one sentence ("…the following certifications: SOC 2 Type II;
 * ISO/IEC 27001:2013."): the items state nothing alone and the lead-in is no statement without them.
 * Items come bulleted ("•", "-") or one per line; long items are sentences of their own and stay apart.
 */
function withListsInline(content: string): string {
  if (!content.includes(':')) return content;
  const lines = content
    .split('\n')
    .flatMap((line) => (line.includes('•') ? line.split(/\s*•\s*/) : [line]))
    .map((l) => l.replace(/^\s*[-*–]\s+/, '').trim())
    .filter((l) => l !== '');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    let j = i + 1;
    while (j < lines.length && isListItem(lines[j]!)) j++;
    if (!line.endsWith(':') || j - i < 2) {
      out.push(line);
      continue;
    }
    out.push(`${line} ${lines.slice(i + 1, j).join('; ')}.`);
    i = j - 1;
  }
  return out.join('\n');
}

/** The text starts as a sentence or list item does: not with a lower-case word carried from a cut. */
function startsCleanly(text: string): boolean {
  return /^[\s•*\-–]*[\p{Lu}\p{N}"“'‘(]/u.test(text);
}

/** The text ends as a sentence does, or as a line without a dangling hyphen, comma or open bracket. */
function endsCleanly(text: string): boolean {
  if (/[.!?)"”'’:]$/.test(text)) return true;
  return !/[-‐–,;(/&]$|\b(?:and|or|the|a|an|of|to|in|for|with|by|on|at|from|as|is|are|was|were|that|which)$/i.test(text);
}

function isWhole(text: string, cutAtStart: boolean, cutAtEnd: boolean): boolean {
  if (cutAtStart || cutAtEnd) return false;
  return startsCleanly(text) && endsCleanly(text);
}

/** Lower-case words prose cannot do without; a run of labels has almost none. */
const FUNCTION_WORDS = new Set(
  'the a an of to in on at by for with from and or but is are was were be been being has have had do does did we our us it its they their them this that these those which who whose as all each per via into than then so not no can will may must should would could when where how if'.split(
    ' ',
  ),
);
/** Markers of a form to be filled in: "(specify)", "(select all that apply)", check boxes "Yes No". */
const FORM_MARKERS = /\((?:specify|select all that apply|check all that apply|if applicable|optional)\)|\bYes\s+No\b|☐|☑|☒|□|■/i;
/** "Company name:", "Hosting Provider:": a label waiting for its value. */
const LABEL = /(?:^|\s)[A-Z][\w()/&'’-]*(?:\s+[\w()/&'’-]+){0,4}:(?=\s|$)/g;

/**
 * Whether a "sentence" is a form's labels or a list of names rather than a statement: two labels or
 * more ("Type of service(s) assessed: Hosting Provider: …"), a form's own markers ("(specify)"), or ten
 * words and more with almost no function words ("Applications / software Hardware Infrastructure").
 */
export function isFormText(sentence: string): boolean {
  if (FORM_MARKERS.test(sentence)) return true;
  if ((sentence.match(LABEL)?.length ?? 0) >= 2) return true;
  const words = sentence.match(/[\p{L}][\p{L}'’-]*/gu) ?? [];
  if (words.length < 10) return false;
  const functional = words.filter((w) => FUNCTION_WORDS.has(w.toLowerCase())).length;
  return functional / words.length < 0.1;
}

/** A sentence an answer may quote as a statement: whole, and not a form's labels. */
export function isStatement(s: QuotableSentence): boolean {
  return s.whole && !isFormText(s.text);
}
