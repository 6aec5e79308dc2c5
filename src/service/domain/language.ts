/**
 * A small stop-word language detector: enough to tell English, German, French, Spanish, Dutch,
 * Portuguese and Italian questionnaires apart. Returns an ISO 639-1 code; English when unsure.
 */
const STOP_WORDS: Record<string, string[]> = {
  en: ['the', 'and', 'of', 'to', 'is', 'are', 'do', 'does', 'you', 'your', 'for', 'with', 'have', 'that', 'this', 'how', 'what', 'be', 'on', 'or'],
  de: ['der', 'die', 'das', 'und', 'ist', 'sind', 'nicht', 'mit', 'für', 'sie', 'ihr', 'ihre', 'werden', 'wie', 'auf', 'ein', 'eine', 'zu', 'von', 'oder'],
  fr: ['le', 'la', 'les', 'et', 'est', 'des', 'une', 'un', 'vous', 'votre', 'pour', 'avec', 'que', 'dans', 'sont', 'du', 'au', 'ou', 'qui', 'comment'],
  es: ['el', 'la', 'los', 'las', 'y', 'es', 'de', 'que', 'en', 'un', 'una', 'su', 'para', 'con', 'por', 'se', 'del', 'son', 'cómo', 'usted'],
  nl: ['de', 'het', 'een', 'en', 'is', 'van', 'zijn', 'uw', 'voor', 'met', 'niet', 'op', 'wordt', 'worden', 'hoe', 'dat', 'die', 'u', 'of', 'er'],
  pt: ['o', 'a', 'os', 'as', 'e', 'é', 'de', 'que', 'em', 'um', 'uma', 'para', 'com', 'não', 'do', 'da', 'dos', 'das', 'seu', 'sua'],
  it: ['il', 'lo', 'la', 'gli', 'le', 'e', 'è', 'di', 'che', 'un', 'una', 'per', 'con', 'non', 'del', 'della', 'sono', 'vostro', 'vostra', 'come'],
};

const LISTS = Object.entries(STOP_WORDS).map(([lang, words]) => [lang, new Set(words)] as const);

export function detectLanguage(text: string): string {
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  if (words.length === 0) return 'en';
  let best = 'en';
  let bestScore = 0;
  for (const [lang, set] of LISTS) {
    let score = 0;
    for (const w of words) if (set.has(w)) score++;
    if (score > bestScore) {
      best = lang;
      bestScore = score;
    }
  }
  return best;
}
