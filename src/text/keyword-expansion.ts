/**
 * Keyword expansion, Algorithm 1 of the TRES papers (arXiv section 3.3, journal section 2.3).
 * Candidates are the distinct words of the relevant corpus; the threshold is the mean cosine
 * similarity over all pairs of distinct seed keywords; a candidate that is not a seed becomes a
 * keyword if its mean cosine similarity to the seed keywords exceeds the threshold.
 * Keyphrases are given by the user and never expanded.
 *
 * Our addition, a document-frequency contrast (`irrelevant`): the similarity test alone admits
 * words that sit near the seeds in GloVe space but occur on every kind of page ("allows",
 * "application", "browser", "user" for hardware seeds on the DocWeb). A candidate is kept only
 * if the share of relevant documents that contain it is at least `minDocFreqRatio` times the
 * share of irrelevant documents that do (add-one smoothed). Measured on the five DocWeb topics in
 * results/relevance/keywords.md.
 */
import { ConfigError } from '../common/index.js';
import type { WordVectors } from './word-vectors.js';

/** A discovered keyword and its score (mean cosine similarity to the seeds). */
export interface ScoredKeyword {
  word: string;
  score: number;
}

/** Options of {@link expandKeywords}. */
export interface KeywordExpansionOptions {
  /**
   * Irrelevant documents (token lists) for the document-frequency contrast; without any, no
   * contrast is applied (Algorithm 1 as published). @default []
   */
  irrelevant?: readonly (readonly string[])[];
  /**
   * Least ratio of a candidate's relevant to irrelevant document frequency (each the share of its
   * corpus's documents, add-one smoothed: (df + 1) / (n + 2)); false turns the contrast off.
   * @default 3
   */
  minDocFreqRatio?: number | false;
}

/** Default {@link KeywordExpansionOptions.minDocFreqRatio}. */
export const DEFAULT_MIN_DOC_FREQ_RATIO = 3;

/** Result of {@link expandKeywords}. */
export interface KeywordExpansion {
  /** Seed keywords that have a vector, as used. */
  seeds: string[];
  /** Seed keywords without a vector: kept as keywords, but they take no part in the scores. */
  seedsWithoutVector: string[];
  /** Mean pairwise cosine similarity of the seeds (the threshold of Algorithm 1). */
  threshold: number;
  /** New keywords, best score first (ties by word). */
  discovered: ScoredKeyword[];
  /** Candidates above the threshold that the document-frequency contrast turned away, best score first. */
  rejected: ScoredKeyword[];
  /** The contrast's ratio as used (false: not applied, also when no irrelevant documents were given). */
  minDocFreqRatio: number | false;
  /** Seeds (all of them) and discovered keywords, sorted. */
  keywords: string[];
  /** Distinct candidate words with a vector that were tested. */
  candidates: number;
}

/**
 * Expands `seeds` with words of `corpus` (token lists, e.g. from `tokenize`).
 * Mean cosine similarity to the seeds equals the dot product with the mean of the unit seed
 * vectors, so each candidate costs one dot product.
 * @throws ConfigError if fewer than two seeds have a word vector (no threshold can be computed),
 *   or if `minDocFreqRatio` is not a positive number
 */
export function expandKeywords(
  seeds: readonly string[],
  corpus: Iterable<readonly string[]>,
  vectors: WordVectors,
  options: KeywordExpansionOptions = {},
): KeywordExpansion {
  const irrelevant = options.irrelevant ?? [];
  const ratioOption = options.minDocFreqRatio ?? DEFAULT_MIN_DOC_FREQ_RATIO;
  if (ratioOption !== false && !(ratioOption > 0 && Number.isFinite(ratioOption))) {
    throw new ConfigError(`minDocFreqRatio must be a positive number or false, got ${String(ratioOption)}`, {
      context: { field: 'minDocFreqRatio' },
    });
  }
  const minDocFreqRatio = irrelevant.length > 0 ? ratioOption : false;
  const distinctSeeds = [...new Set(seeds)];
  const used = distinctSeeds.filter((s) => vectors.has(s));
  const seedsWithoutVector = distinctSeeds.filter((s) => !vectors.has(s));
  if (used.length < 2) {
    throw new ConfigError(
      `keyword expansion needs at least two seed keywords with a word vector; got ${used.length} ` +
        `(${used.join(', ') || 'none'}); without a vector: ${seedsWithoutVector.join(', ') || 'none'}`,
    );
  }
  const rows = used.map((s) => vectors.indexOf(s));
  // Threshold: mean cosine similarity over all pairs of distinct seeds (equation 2).
  let sum = 0;
  let pairs = 0;
  for (let a = 0; a < rows.length; a++) {
    for (let b = a + 1; b < rows.length; b++) {
      sum += vectors.rowCosine(rows[a] as number, rows[b] as number);
      pairs++;
    }
  }
  const threshold = sum / pairs;
  const dim = vectors.dim;
  const meanUnit = new Float64Array(dim);
  for (const r of rows) {
    const n = vectors.norms[r] as number;
    if (n === 0) continue;
    for (let k = 0; k < dim; k++)
      meanUnit[k] = (meanUnit[k] as number) + (vectors.matrix[r * dim + k] as number) / n;
  }
  for (let k = 0; k < dim; k++) meanUnit[k] = (meanUnit[k] as number) / rows.length;

  const seedSet = new Set(distinctSeeds);
  const tested = new Set<string>();
  const passed: ScoredKeyword[] = [];
  const relevantDf = new Map<string, number>();
  let relevantDocs = 0;
  for (const doc of corpus) {
    relevantDocs++;
    if (minDocFreqRatio !== false) {
      for (const word of new Set(doc)) relevantDf.set(word, (relevantDf.get(word) ?? 0) + 1);
    }
    for (const word of doc) {
      if (tested.has(word) || seedSet.has(word)) continue;
      tested.add(word);
      const r = vectors.indexOf(word);
      if (r < 0) continue;
      const n = vectors.norms[r] as number;
      if (n === 0) continue;
      let dot = 0;
      for (let k = 0; k < dim; k++) dot += (vectors.matrix[r * dim + k] as number) * (meanUnit[k] as number);
      const score = dot / n;
      if (score > threshold) passed.push({ word, score });
    }
  }
  const discovered: ScoredKeyword[] = [];
  const rejected: ScoredKeyword[] = [];
  const irrelevantDf = minDocFreqRatio === false ? undefined : documentFrequencies(irrelevant, passed);
  for (const k of passed) {
    const isTopical =
      irrelevantDf === undefined ||
      ((relevantDf.get(k.word) ?? 0) + 1) / (relevantDocs + 2) >=
        (minDocFreqRatio as number) * (((irrelevantDf.get(k.word) ?? 0) + 1) / (irrelevant.length + 2));
    (isTopical ? discovered : rejected).push(k);
  }
  const byScore = (x: ScoredKeyword, y: ScoredKeyword) => y.score - x.score || (x.word < y.word ? -1 : 1);
  discovered.sort(byScore);
  rejected.sort(byScore);
  let candidates = 0;
  for (const w of tested) if (vectors.has(w)) candidates++;
  return {
    seeds: used,
    seedsWithoutVector,
    threshold,
    discovered,
    rejected,
    minDocFreqRatio,
    keywords: [...distinctSeeds, ...discovered.map((d) => d.word)].sort(),
    candidates,
  };
}

/** Number of `docs` that contain each word of `words`. */
function documentFrequencies(
  docs: readonly (readonly string[])[],
  words: readonly ScoredKeyword[],
): Map<string, number> {
  const df = new Map<string, number>(words.map((w) => [w.word, 0]));
  for (const doc of docs) {
    for (const word of new Set(doc)) {
      const n = df.get(word);
      if (n !== undefined) df.set(word, n + 1);
    }
  }
  return df;
}
