/**
 * RAKE, Rapid Automatic Keyword Extraction (Rose, Engel, Cramer and Cowley, 2010), as Lim's
 * thesis (section 5.3) lists it and as the `aneesha/RAKE` code it ran: split the text at
 * punctuation into sentences, split sentences at stopwords into candidate phrases, score each
 * word by degree / frequency (degree: the lengths of the phrases it occurs in, summed), score a
 * phrase by the sum of its word scores, return the candidates best first.
 *
 * Choices where the thesis is open: the stopword list is the project's one (`stopwords.ts`,
 * instead of RAKE's SmartStoplist); no stemming (the thesis' step 6 says "with stemming", the
 * code it ran does not stem); digits and one-letter words end a phrase, as punctuation does.
 */
import { STOPWORDS } from './stopwords.js';

/** A candidate keyword phrase and its RAKE score. */
export interface RakeKeyword {
  /** Lowercase words of the phrase joined by one space. */
  phrase: string;
  words: string[];
  /** Sum of the words' degree / frequency. */
  score: number;
}

/** Options of {@link rakeKeywords}. */
export interface RakeOptions {
  /** Longest candidate phrase in words; longer runs are cut into pieces. @default 5 */
  maxPhraseWords?: number;
  /** Keep only the best `n` phrases; false keeps every candidate (the thesis' code). @default false */
  maxKeywords?: number | false;
}

// Sentence delimiters of aneesha/RAKE (brackets, newline, . ! ? , ; : tab - " ( ) ' and dashes).
const SENTENCE_DELIMITERS = /[[\]\n.!?,;:\t\-"()'\u2019\u2013\u2014|/\\]+/u;
const WORD = /^\p{L}{2,}$/u;

/** Candidate phrases of `text` in order of occurrence (duplicates kept). */
export function rakeCandidates(text: string, maxPhraseWords = 5): string[][] {
  const phrases: string[][] = [];
  for (const sentence of text.toLowerCase().split(SENTENCE_DELIMITERS)) {
    let phrase: string[] = [];
    const flush = () => {
      if (phrase.length > 0) phrases.push(phrase);
      phrase = [];
    };
    for (const raw of sentence.split(/\s+/)) {
      if (raw === '') continue;
      if (!WORD.test(raw) || STOPWORDS.has(raw)) {
        flush();
        continue;
      }
      phrase.push(raw);
      if (phrase.length >= maxPhraseWords) flush();
    }
    flush();
  }
  return phrases;
}

/**
 * RAKE keywords of `text`, unique phrases, best score first, ties broken by phrase.
 * Never throws; '' gives [].
 */
export function rakeKeywords(text: string, options: RakeOptions = {}): RakeKeyword[] {
  const candidates = rakeCandidates(text, options.maxPhraseWords ?? 5);
  const frequency = new Map<string, number>();
  const degree = new Map<string, number>();
  for (const phrase of candidates) {
    for (const word of phrase) {
      frequency.set(word, (frequency.get(word) ?? 0) + 1);
      // Degree counts the word itself and its co-occurring words in the phrase.
      degree.set(word, (degree.get(word) ?? 0) + phrase.length);
    }
  }
  const unique = new Map<string, string[]>();
  for (const phrase of candidates) unique.set(phrase.join(' '), phrase);
  const scored: RakeKeyword[] = [];
  for (const [text, words] of unique) {
    let score = 0;
    for (const w of words) score += (degree.get(w) as number) / (frequency.get(w) as number);
    scored.push({ phrase: text, words, score });
  }
  scored.sort((a, b) => b.score - a.score || (a.phrase < b.phrase ? -1 : a.phrase > b.phrase ? 1 : 0));
  const max = options.maxKeywords ?? false;
  return max === false ? scored : scored.slice(0, max);
}
