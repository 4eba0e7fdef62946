/**
 * Keyword expansion, Algorithm 1 of the TRES papers (arXiv section 3.3, journal section 2.3).
 * Candidates are the distinct words of the relevant corpus; the threshold is the mean cosine
 * similarity over all pairs of distinct seed keywords; a candidate that is not a seed becomes a
 * keyword if its mean cosine similarity to the seed keywords exceeds the threshold.
 * Keyphrases are given by the user and never expanded.
 */
import { ConfigError } from '../common/errors.js';
import type { WordVectors } from './word-vectors.js';

/** A discovered keyword and its score (mean cosine similarity to the seeds). */
export interface ScoredKeyword {
  word: string;
  score: number;
}

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
  /** Seeds (all of them) and discovered keywords, sorted. */
  keywords: string[];
  /** Distinct candidate words with a vector that were tested. */
  candidates: number;
}

/**
 * Expands `seeds` with words of `corpus` (token lists, e.g. from `tokenize`).
 * Mean cosine similarity to the seeds equals the dot product with the mean of the unit seed
 * vectors, so each candidate costs one dot product.
 * @throws ConfigError if fewer than two seeds have a word vector (no threshold can be computed)
 */
export function expandKeywords(
  seeds: readonly string[],
  corpus: Iterable<readonly string[]>,
  vectors: WordVectors,
): KeywordExpansion {
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
  const discovered: ScoredKeyword[] = [];
  for (const doc of corpus) {
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
      if (score > threshold) discovered.push({ word, score });
    }
  }
  discovered.sort((x, y) => y.score - x.score || (x.word < y.word ? -1 : 1));
  let candidates = 0;
  for (const w of tested) if (vectors.has(w)) candidates++;
  return {
    seeds: used,
    seedsWithoutVector,
    threshold,
    discovered,
    keywords: [...distinctSeeds, ...discovered.map((d) => d.word)].sort(),
    candidates,
  };
}
