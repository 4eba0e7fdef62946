/**
 * Lim's relevance score (thesis section 5.2.2) and URL features (section 5.2.4):
 *
 *   relevance = (1 / N_K) * sum_i max_y sim'(K_i, S_y),  sim' = sim if sim >= z else 0,  z = 2/3
 *
 * K = the RAKE keywords of a page (section 5.3), or the words of a URL; S = the search words
 * (the topic's keywords and keyphrases); sim = cosine of word vectors (word2vec in the thesis;
 * the project's GloVe vectors here). Choices where the thesis is open:
 * - a phrase's vector is the mean of the vectors of its words that have one (the thesis' getSim
 *   is not shown; phrases are "permissible", section 5.3);
 * - a keyword none of whose words has a vector is left out of N_K: the thesis' code skips such a
 *   pair (`except: continue`, section 6.2.2). Without this, on a web of made-up words nothing
 *   would ever be relevant;
 * - without word vectors the search words get one-hot vectors (so sim is 1 for a phrase holding
 *   a search word and only unknown words besides, 0 otherwise): plain keyword matching.
 */
import type { KeywordSet, WordVectorLookup } from '../../text/index.js';
import { rakeKeywords, tokenize, URL_NOISE_WORDS } from '../../text/index.js';

export interface LimRelevanceOptions {
  /** The search words S (section 1.3): keywords and keyphrases of the topic. */
  searchWords: KeywordSet;
  /** Word vectors; undefined: one-hot vectors of the search words (keyword matching). */
  vectors?: WordVectorLookup;
  /** z: similarities below it count as 0. */
  similarityThreshold: number;
  /** A URL longer than this is predicted irrelevant (section 5.2.4 item 1). */
  maxUrlLength: number;
}

/** File types that are not text (section 5.2.4 item 2: "gif, png, mp3, wmv, ..."). */
const NON_TEXT_EXTENSIONS = new Set(
  'gif png jpg jpeg bmp ico svg webp tif tiff mp3 mp4 wav ogg wmv avi mov mkv flv zip gz tgz bz2 xz 7z rar exe dmg iso deb rpm bin jar css js woff woff2 ttf'.split(
    ' ',
  ),
);

/** Five consonants in a row, or a long mix of letters and digits: a name no one chose to read. */
export function isGibberish(segment: string): boolean {
  const s = segment.toLowerCase();
  if (/[bcdfghjklmnpqrstvwxz]{5}/.test(s)) return true;
  if (s.length < 8) return false;
  const digits = s.replace(/[^0-9]/g, '').length;
  const letters = s.replace(/[^a-z]/g, '').length;
  return digits >= 3 && letters >= 3;
}

/**
 * True if a URL feature of section 5.2.4 predicts an irrelevant page: way too long, a non-text
 * file type, a search query, a gibberish host name or path segment.
 */
export function hasIrrelevantUrlFeature(url: string, maxUrlLength: number): boolean {
  if (url.length > maxUrlLength) return true;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return true;
  }
  if (parsed.search.length > 1) return true;
  const path = parsed.pathname;
  const dot = path.lastIndexOf('.');
  if (dot > path.lastIndexOf('/') && NON_TEXT_EXTENSIONS.has(path.slice(dot + 1).toLowerCase())) return true;
  const labels = parsed.hostname.split('.').slice(0, -1);
  const segments = [...labels, ...path.split(/[^A-Za-z0-9]+/)];
  return segments.some((segment) => segment !== '' && isGibberish(segment));
}

/** Lim's relevance of pages and URLs to the search words. */
export class LimRelevance {
  private readonly vectors: WordVectorLookup;
  /** Unit vectors of the search words that have one. */
  private readonly searchUnit: Float32Array[] = [];
  private readonly z: number;

  constructor(private readonly options: LimRelevanceOptions) {
    this.z = options.similarityThreshold;
    const words = options.searchWords;
    const phrases = [...words.keywords.map((k) => [k]), ...words.keyphrases.map((p) => p.split(' '))];
    this.vectors = options.vectors ?? oneHotVectors(phrases.flat());
    for (const phrase of phrases) {
      const v = this.phraseVector(phrase);
      if (v !== undefined) this.searchUnit.push(v);
    }
  }

  /** Number of search words with a vector (0: every relevance is 0). */
  get searchWordCount(): number {
    return this.searchUnit.length;
  }

  /** Relevance in [0, 1] of a page from its RAKE keywords (title and text). */
  pageRelevance(title: string, text: string): number {
    const keywords = rakeKeywords(title.length > 0 ? `${title}.\n${text}` : text);
    return this.relevance(keywords.map((k) => k.words));
  }

  /**
   * Relevance in [0, 1] of a URL from its words, each a keyword (RAKE splits a URL at every
   * punctuation mark); 0 when a URL feature of section 5.2.4 predicts an irrelevant page. The
   * top-level domain and the URL noise words (http, www, html, ...) are left out.
   */
  urlRelevance(url: string): number {
    if (hasIrrelevantUrlFeature(url, this.options.maxUrlLength)) return 0;
    const host = (() => {
      try {
        return new URL(url).hostname;
      } catch {
        return '';
      }
    })();
    const withoutTld = url.replace(host, host.slice(0, Math.max(0, host.lastIndexOf('.'))));
    const words = tokenize(withoutTld).filter((t) => !URL_NOISE_WORDS.has(t));
    return this.relevance(words.map((w) => [w]));
  }

  /** The formula of section 5.2.2 over keyword phrases; keywords without any vector left out. */
  relevance(keywords: readonly (readonly string[])[]): number {
    if (this.searchUnit.length === 0) return 0;
    let sum = 0;
    let n = 0;
    for (const phrase of keywords) {
      const v = this.phraseVector(phrase);
      if (v === undefined) continue;
      n++;
      let best = 0;
      for (const s of this.searchUnit) {
        let dot = 0;
        for (let k = 0; k < v.length; k++) dot += (v[k] as number) * (s[k] as number);
        if (dot >= this.z && dot > best) best = dot;
      }
      sum += best;
    }
    return n === 0 ? 0 : sum / n;
  }

  /** Unit vector of the mean of the words' vectors; undefined if no word has one. */
  private phraseVector(words: readonly string[]): Float32Array | undefined {
    let sum: Float32Array | undefined;
    for (const w of words) {
      const v = this.vectors.get(w);
      if (v === undefined) continue;
      sum ??= new Float32Array(this.vectors.dim);
      for (let k = 0; k < sum.length; k++) sum[k] = (sum[k] as number) + (v[k] as number);
    }
    if (sum === undefined) return undefined;
    let norm = 0;
    for (const x of sum) norm += x * x;
    if (norm === 0) return undefined;
    norm = Math.sqrt(norm);
    for (let k = 0; k < sum.length; k++) sum[k] = (sum[k] as number) / norm;
    return sum;
  }
}

/** One-hot vectors over `words` (the fallback without word vectors). */
function oneHotVectors(words: readonly string[]): WordVectorLookup {
  const index = new Map<string, number>();
  for (const w of words) if (!index.has(w)) index.set(w, index.size);
  const dim = Math.max(1, index.size);
  return {
    dim,
    get(word) {
      const i = index.get(word);
      if (i === undefined) return undefined;
      const v = new Float32Array(dim);
      v[i] = 1;
      return v;
    },
  };
}
