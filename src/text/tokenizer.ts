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
const NON_LETTERS = /[^\p{L}]+/gu;

/**
 * Splits `text` into lowercase word tokens (letters only, at least two of them), stopwords
 * removed unless `keepStopwords`. Never throws; '' gives [].
 */
export function tokenize(text: string, options: TokenizeOptions = {}): string[] {
  const keepStopwords = options.keepStopwords === true;
  const out: string[] = [];
  for (const raw of text.toLowerCase().replace(NON_LETTERS, ' ').split(' ')) {
    if (raw.length < 2) continue;
    if (!keepStopwords && STOPWORDS.has(raw)) continue;
    out.push(raw);
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
