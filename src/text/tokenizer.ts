/**
 * The one tokenizer of tres: lowercase, every character that is not a letter (punctuation,
 * digits, symbols) becomes a separator, split, drop one-letter tokens, drop stopwords. The same
 * function prepares training documents, crawled pages, anchor texts and keyword lists, so the
 * classifiers see at crawl time exactly what they saw in training.
 *
 * Replacing punctuation by a space (rather than deleting it, as Python's `str.translate` does in
 * the authors' code) keeps "ice-hockey/news" as three words instead of one unknown word.
 */
import { STOPWORDS } from './stopwords.js';

/** Options of {@link tokenize}. */
export interface TokenizeOptions {
  /** Keep stopwords. @default false */
  keepStopwords?: boolean;
}

// Anything that is not a letter (Unicode aware) separates tokens; digits are dropped with it.
const LETTER = /^\p{L}$/u;
// Letter or not, per UTF-16 code unit of the Basic Multilingual Plane, filled on first sight
// (0 unknown, 1 letter, 2 not): a character-class regex over the whole text cost three times
// more than the classifiers that read its tokens.
const BMP_CLASS = new Uint8Array(0x10000);

/** True if the code point at `i` of `s` (a BMP unit or a surrogate pair starting at `i`) is a letter. */
function isLetterAt(s: string, code: number, i: number): boolean {
  if (code < 0x80) return code >= 97 ? code <= 122 : code >= 65 && code <= 90;
  if (code >= 0xd800 && code <= 0xdbff) {
    const cp = s.codePointAt(i) as number;
    return cp > 0xffff ? LETTER.test(String.fromCodePoint(cp)) : false;
  }
  let c = BMP_CLASS[code] as number;
  if (c === 0) {
    c = LETTER.test(String.fromCharCode(code)) ? 1 : 2;
    BMP_CLASS[code] = c;
  }
  return c === 1;
}

/**
 * Splits `text` into lowercase word tokens (letters only, at least two of them), stopwords
 * removed unless `keepStopwords`. Never throws; '' gives [].
 */
export function tokenize(text: string, options: TokenizeOptions = {}): string[] {
  const keepStopwords = options.keepStopwords === true;
  const lower = text.toLowerCase();
  const out: string[] = [];
  let start = -1;
  const n = lower.length;
  for (let i = 0; i <= n; i++) {
    const code = i < n ? lower.charCodeAt(i) : 32;
    if (i < n && isLetterAt(lower, code, i)) {
      if (start < 0) start = i;
      if (code >= 0xd800 && code <= 0xdbff) i++; // the low surrogate belongs to this letter
      continue;
    }
    if (start >= 0) {
      // Lengths in UTF-16 units, as String.length counts them.
      if (i - start >= 2) {
        const raw = lower.slice(start, i);
        if (keepStopwords || !STOPWORDS.has(raw)) out.push(raw);
      }
      start = -1;
    }
  }
  return out;
}

/** URL pieces that say nothing about a topic: schemes, "www", common TLDs and file suffixes. */
export const URL_NOISE_WORDS: ReadonlySet<string> = new Set([
  'http',
  'https',
  'www',
  'com',
  'org',
  'net',
  'edu',
  'gov',
  'html',
  'htm',
  'php',
  'asp',
  'aspx',
  'jsp',
  'cgi',
  'index',
]);

/**
 * Word tokens of a URL ("https://www.ice-hockey.org/news/2020.html" -> ice, hockey, news):
 * the {@link tokenize} tokens minus {@link URL_NOISE_WORDS}. Used to build the authors'
 * "anchor" input (link text + URL tokens). Never throws.
 */
export function urlTokens(url: string): string[] {
  return tokenize(url).filter((t) => !URL_NOISE_WORDS.has(t));
}

/**
 * Tokens of a link as the anchor classifiers see it: anchor text followed by the URL tokens
 * (the reference code's "anchor").
 */
export function anchorTokens(anchorText: string, url: string): string[] {
  return tokenize(anchorText).concat(urlTokens(url));
}

/** Tokens of a page as the page classifiers see it: title followed by body text. */
export function pageTokens(title: string, text: string): string[] {
  return title.length > 0 ? tokenize(`${title} ${text}`) : tokenize(text);
}
