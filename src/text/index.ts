/**
 * Public API of the text room: the one tokenizer and stopword list, word vectors and their
 * binary cache, keyword matching, keyword expansion (Algorithm 1) and its Table-2 statistics,
 * and a cheap language check.
 */

export {
  type ContentFingerprint,
  contentFingerprint,
  hammingDistance,
  simhash,
} from './content-fingerprint.js';
export { expandKeywords, type KeywordExpansion, type ScoredKeyword } from './keyword-expansion.js';
export { KeywordSet, type KeywordSetJson } from './keyword-set.js';
export { type KeywordStatistics, keywordStatistics, shortcutWidth } from './keyword-stats.js';
export { detectLanguage, type LanguageGuess } from './language.js';
export {
  type FingerprintedPage,
  MIN_MAIN_CONTENT_WORDS,
  pageFingerprint,
  textOutsideLinks,
} from './page-fingerprint.js';
export { rakeKeywords } from './rake.js';
export { isStopword, STOPWORDS } from './stopwords.js';
export {
  anchorTokens,
  pageTokens,
  type TokenizeOptions,
  tokenize,
  URL_NOISE_WORDS,
  urlTokens,
} from './tokenizer.js';
export {
  buildWordVectorCache,
  cacheFiles,
  defaultCacheDir,
  defaultVectorSource,
  loadWordVectors,
  readWordVectorCache,
  type WordVectorCacheOptions,
} from './vector-cache.js';
export { readWinkEmbeddings, type WinkHeader, type WinkVectorVisitor } from './wink-json-reader.js';
export { readWordList } from './word-list-file.js';
export { computeNorms, type Neighbour, type WordVectorLookup, WordVectors } from './word-vectors.js';
