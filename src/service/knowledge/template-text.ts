/**
 * Template text: what a blank starter document holds where the organisation's own words should be.
 * Placeholders (`[FILL IN: what is monitored?]`, `[name]`, `[ciSystem]`, `<company name>`, `TBD`, `____`)
 * and guidance addressed to whoever fills the template in ("Say 'not yet' if true", "Replace this text").
 * A passage holding any of them states nothing about the organisation yet: it is no evidence for an
 * answer, however well its words match a question.
 */

/** A bracketed span, not a markdown link (`[text](url)`, `[text][1]`) or a footnote (`[^1]`). */
const BRACKETED = /\[([^[\]\n]{1,100})\](?![([:])/g;
/** An angle-bracketed span: `<company name>`, `<insert date>`; HTML tags and addresses are excluded below. */
const ANGLED = /<([^<>\n]{2,80})>/g;
/** Words that open an instruction to fill something in. */
const FILL_WORDS =
  /^(?:fill(?:[\s-]*in)?|to\s*do|todo|tbd|tba|insert|enter|add|placeholder|replace|your|describe|specify|list|provide|include|name of|e\.?g\.?|example)\b/i;
/** A variable name left in a rendered template: `[provider]`, `[ciSystem]`, `[securityOfficerName]`. */
const IDENTIFIER = /^[a-z]+(?:[A-Z][a-z0-9]*)+$/;
/**
 * What a placeholder names: "[Name of Customer]", "[provider]", "[date]". A plain word in brackets that
 * names nothing of the kind is a gloss ("page visits [events]"), not a blank.
 */
const PLACEHOLDER_NOUNS =
  /\b(?:name|company|organi[sz]ation|date|title|address|email|phone|url|owner|vendor|provider|product|person|role|team|system|tool|department|location|city|country|version|amount|frequency)s?\b/i;
/** Lower-case bracketed words that are not placeholders: editorial marks. */
const NOT_PLACEHOLDERS = new Set(['sic', 'sic!', 'emphasis added', 'redacted', 'ibid', 'citation needed', 'email protected']);
const HTML_TAGS = /^\/?\s*(?:a|b|i|u|p|br|hr|em|strong|span|div|li|ul|ol|td|tr|th|table|img|sup|sub|h[1-6]|code|pre|small|font|center)\b/i;
/** Markers that stand for missing content on their own. */
const MARKERS = /\b(?:TBD|TBA|TODO|FIXME|XXX+)\b|_{4,}/g;
/**
 * Guidance to the template's reader, not a statement: "Say 'not yet' if true", "Answer Yes or No",
 * "Replace this text with…", "Delete this section if…".
 */
const GUIDANCE = [
  /\b(?:say|answer|write|enter|select|choose|mark|put)\s+["'“‘]?(?:yes|no|not yet|n\/?a|none|true|false)["'”’]?(?:\s+(?:or|if|when|unless)\b|[.,;:]|$)/i,
  /\b(?:replace|delete|remove|update|customi[sz]e|adapt|edit)\s+(?:this|these|the following|the)\s+(?:text|section|paragraph|line|sentence|guidance|instructions?|placeholders?|template|example)\b/i,
  /\b(?:this|the)\s+template\s+(?:is|should|must|can)\b/i,
  /\bif\s+(?:true|not\s+applicable|applicable)\s*[,:]\s*(?:say|write|answer|state|enter|delete|remove)\b/i,
];

export interface TemplateMarks {
  /** Each placeholder as written: `[FILL IN: what is monitored?]`, `TBD`. */
  placeholders: string[];
  /** Each guidance sentence's matching words. */
  guidance: string[];
}

export function templateMarks(text: string): TemplateMarks {
  const placeholders: string[] = [];
  for (const m of text.matchAll(BRACKETED)) if (isBracketPlaceholder(m[1]!.trim())) placeholders.push(m[0]);
  for (const m of text.matchAll(ANGLED)) if (isAnglePlaceholder(m[1]!.trim())) placeholders.push(m[0]);
  for (const m of text.matchAll(MARKERS)) placeholders.push(m[0]);
  const guidance = GUIDANCE.flatMap((p) => {
    const m = p.exec(text);
    return m ? [m[0]] : [];
  });
  return { placeholders, guidance };
}

/** Whether the text holds any placeholder or template guidance: it is not the organisation's statement. */
export function isTemplateText(text: string): boolean {
  const marks = templateMarks(text);
  return marks.placeholders.length > 0 || marks.guidance.length > 0;
}

function isBracketPlaceholder(inner: string): boolean {
  if (!/[A-Za-z]/.test(inner)) return false; // [1], [ ], […]
  if (/^[xX✓✔]$/.test(inner) || inner.startsWith('^')) return false; // checkboxes, footnotes
  if (NOT_PLACEHOLDERS.has(inner.toLowerCase())) return false;
  if (FILL_WORDS.test(inner)) return true;
  if (IDENTIFIER.test(inner)) return true;
  // "[Name of Customer]", "[Company Name]", "[date]": a short noun phrase naming what goes there.
  return PLACEHOLDER_NOUNS.test(inner) && inner.split(/\s+/).length <= 5;
}

function isAnglePlaceholder(inner: string): boolean {
  if (!/[A-Za-z]/.test(inner) || HTML_TAGS.test(inner)) return false;
  if (/^(?:https?:|mailto:|www\.)|@|=|^!--/.test(inner)) return false;
  if (/\[[^\]]+\]/.test(inner)) return true; // <[privacyPolicyURL]>
  return FILL_WORDS.test(inner) || IDENTIFIER.test(inner) || (/^[A-Za-z][A-Za-z ]{2,60}$/.test(inner) && inner.includes(' '));
}

/** What a file's passages hold of template text, for the library's label. */
export interface TemplateSummary {
  placeholders: number;
  guidance: number;
  /** Passages with any template text: kept out of answers. */
  templatePassages: number;
  passages: number;
}

export function summariseTemplate(passages: string[]): TemplateSummary {
  const summary: TemplateSummary = { placeholders: 0, guidance: 0, templatePassages: 0, passages: passages.length };
  for (const text of passages) {
    const marks = templateMarks(text);
    summary.placeholders += marks.placeholders.length;
    summary.guidance += marks.guidance.length;
    if (marks.placeholders.length || marks.guidance.length) summary.templatePassages++;
  }
  return summary;
}

/**
 * The library's label for a file with template text ("template: 12 placeholders, 3 of 20 passages kept
 * out of answers"; "template only: …" when every passage is one), or null when it has none.
 */
export function templateLabel(s: TemplateSummary): string | null {
  if (s.templatePassages === 0) return null;
  const parts = [
    s.placeholders ? `${s.placeholders} placeholder${s.placeholders === 1 ? '' : 's'}` : '',
    s.guidance ? `${s.guidance} guidance sentence${s.guidance === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  const only = s.templatePassages === s.passages;
  const kept = only ? 'nothing in it is used for answers' : `${s.templatePassages} of ${s.passages} passages kept out of answers`;
  return `${only ? 'template only' : 'template'}: ${parts.join(', ')}; ${kept}`;
}
