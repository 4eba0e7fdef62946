/**
 * The (expanded) keywords and the keyphrases of a topic, and the three ways the papers match them:
 * in a token sequence (page text, anchor text), in a URL, and keyphrases as contiguous phrases.
 * Every consumer (KwBiLSTM inputs, the fast model, the RL state-action features "keyword in
 * URL / anchor") uses this one class, with the expanded set (the reference code's bug was to
 * check only the seed keywords in URLs).
 */
import { tokenize } from './tokenizer.js';

/** Serialised form of a {@link KeywordSet}. */
export interface KeywordSetJson {
  keywords: string[];
  keyphrases: string[];
}

/** Minimum keyword length for a substring match inside a URL word ("football" in "footballnews"). */
const MIN_URL_SUBSTRING_LENGTH = 4;

/** Keywords (single tokens) and keyphrases (token sequences) of a topic. */
export class KeywordSet {
  /** Keywords, normalised by the tokenizer, sorted. */
  readonly keywords: readonly string[];
  /** Keyphrases as token sequences joined by one space, in the given order. */
  readonly keyphrases: readonly string[];
  private readonly keywordLookup: ReadonlySet<string>;
  private readonly phraseTokens: readonly (readonly string[])[];

  /**
   * @param keywords words; each is tokenized, so "Ice-hockey" gives "ice" and "hockey"
   * @param keyphrases phrases; each is tokenized (stopwords removed, as in page tokens)
   */
  constructor(keywords: Iterable<string>, keyphrases: Iterable<string> = []) {
    const words = new Set<string>();
    for (const k of keywords) for (const t of tokenize(k)) words.add(t);
    this.keywords = [...words].sort();
    this.keywordLookup = words;
    const phrases = new Map<string, string[]>();
    for (const p of keyphrases) {
      const tokens = tokenize(p);
      if (tokens.length > 0) phrases.set(tokens.join(' '), tokens);
    }
    this.keyphrases = [...phrases.keys()];
    this.phraseTokens = [...phrases.values()];
  }

  /** Number of keywords. */
  get size(): number {
    return this.keywords.length;
  }

  /** True if `token` is a keyword. */
  has(token: string): boolean {
    return this.keywordLookup.has(token);
  }

  /** Number of keyword occurrences among `tokens` (each occurrence counts). */
  count(tokens: readonly string[]): number {
    let n = 0;
    for (const t of tokens) if (this.keywordLookup.has(t)) n++;
    return n;
  }

  /** True if any keyword occurs among `tokens`. */
  isIn(tokens: readonly string[]): boolean {
    for (const t of tokens) if (this.keywordLookup.has(t)) return true;
    return false;
  }

  /** True if some keyphrase occurs as a contiguous run of `tokens` (tokens from {@link tokenize}). */
  hasKeyphrase(tokens: readonly string[]): boolean {
    for (const phrase of this.phraseTokens) {
      const first = phrase[0] as string;
      for (let i = 0; i + phrase.length <= tokens.length; i++) {
        if (tokens[i] !== first) continue;
        let j = 1;
        while (j < phrase.length && tokens[i + j] === phrase[j]) j++;
        if (j === phrase.length) return true;
      }
    }
    return false;
  }

  /**
   * True if a keyword is "part of the URL" (arXiv paper, section 3.4): equal to a word of the URL,
   * or, for keywords of at least four letters, inside one ("football" in "footballnews.com").
   */
  isInUrl(url: string): boolean {
    const words = tokenize(url, { keepStopwords: true });
    for (const w of words) {
      if (this.keywordLookup.has(w)) return true;
      if (w.length <= MIN_URL_SUBSTRING_LENGTH) continue;
      for (const k of this.keywords) {
        if (k.length >= MIN_URL_SUBSTRING_LENGTH && k.length < w.length && w.includes(k)) return true;
      }
    }
    return false;
  }

  /** Plain JSON form (for saving with a model). */
  toJSON(): KeywordSetJson {
    return { keywords: [...this.keywords], keyphrases: [...this.keyphrases] };
  }

  /** Rebuilds a set saved with {@link toJSON}. */
  static fromJSON(json: KeywordSetJson): KeywordSet {
    return new KeywordSet(json.keywords, json.keyphrases);
  }
}
