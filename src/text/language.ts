/**
 * A cheap "is this English?" check for training documents, so a folder of French or Chinese
 * pages is reported instead of silently teaching a classifier noise. Two signals: the share of
 * letters outside the Latin script, and, for Latin text, whether frequent function words of
 * other European languages outnumber English stopwords. Text without function words at all
 * (lists of terms, synthetic pages) counts as English.
 */
import { STOPWORDS } from './stopwords.js';

// Frequent function words of French, German, Spanish, Italian, Portuguese and Dutch that are
// not English words.
const FOREIGN_FUNCTION_WORDS: ReadonlySet<string> = new Set(
  `le la les des est et une du pour dans qui que pas sur au avec sont cette mais nous vous ils elle
  der die das und ist nicht mit ein eine sich auf den dem zu von für auch wir sie werden
  el los las por con una del para como pero más este esta sus también
  il che di della per sono gli nel alla questo anche come
  não uma com os ao mais seu sua pelo
  het een van niet zijn voor ook maar wordt`.split(/\s+/),
);

/** Result of {@link detectLanguage}. */
export interface LanguageGuess {
  isEnglish: boolean;
  /** Why it is not English ('' when it is). */
  reason: string;
}

/**
 * Guesses whether `text` is English.
 * @param minWords texts with fewer words are given the benefit of the doubt. @default 20
 */
export function detectLanguage(text: string, minWords = 20): LanguageGuess {
  let latin = 0;
  let other = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || (code >= 0xc0 && code <= 0x24f))
      latin++;
    else if (code > 0x24f && /\p{L}/u.test(ch)) other++;
  }
  if (other > 50 && other > latin) return { isEnglish: false, reason: 'mostly non-Latin script' };
  const words = text.toLowerCase().split(/[^\p{L}']+/u);
  if (words.length < minWords) return { isEnglish: true, reason: '' };
  let english = 0;
  let foreign = 0;
  for (const w of words) {
    if (STOPWORDS.has(w)) english++;
    else if (FOREIGN_FUNCTION_WORDS.has(w)) foreign++;
  }
  if (foreign >= 5 && foreign > 2 * english) {
    return { isEnglish: false, reason: `${foreign} foreign function words against ${english} English ones` };
  }
  return { isEnglish: true, reason: '' };
}
