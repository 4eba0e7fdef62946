/**
 * The statistics of Table 2 of the TRES papers (mean keyword count per relevant and per
 * irrelevant document, numbers of initial and discovered keywords) and SHORTCUT1, the width of
 * KwBiLSTM's keyword thermometer: the ceiling of the mean number of keyword occurrences per
 * relevant document (reference code).
 */
import { KeywordSet } from './keyword-set.js';

/** Table-2 statistics of a keyword expansion. */
export interface KeywordStatistics {
  /** Mean occurrences of discovered keywords per relevant document (Table 2, first row). */
  meanDiscoveredPerRelevant: number;
  /** Mean occurrences of discovered keywords per irrelevant document (Table 2, second row); NaN without irrelevant documents. */
  meanDiscoveredPerIrrelevant: number;
  /** Mean occurrences of all keywords (seeds and discovered) per relevant document. */
  meanKeywordsPerRelevant: number;
  /** Mean occurrences of all keywords per irrelevant document; NaN without irrelevant documents. */
  meanKeywordsPerIrrelevant: number;
  /** Number of initial (seed) keywords. */
  initialKeywords: number;
  /** Number of discovered keywords. */
  discoveredKeywords: number;
  /** ceil(meanKeywordsPerRelevant), at least 1: the thermometer width of KwBiLSTM. */
  shortcut1: number;
  relevantDocuments: number;
  irrelevantDocuments: number;
}

function meanCount(set: KeywordSet, docs: readonly (readonly string[])[]): number {
  if (docs.length === 0) return Number.NaN;
  let total = 0;
  for (const d of docs) total += set.count(d);
  return total / docs.length;
}

/**
 * Computes the Table-2 statistics over token lists of relevant and irrelevant documents.
 * @param seeds the initial keywords
 * @param discovered the discovered keywords
 */
export function keywordStatistics(
  seeds: readonly string[],
  discovered: readonly string[],
  relevant: readonly (readonly string[])[],
  irrelevant: readonly (readonly string[])[] = [],
): KeywordStatistics {
  const discoveredSet = new KeywordSet(discovered);
  const all = new KeywordSet([...seeds, ...discovered]);
  const meanAll = meanCount(all, relevant);
  return {
    meanDiscoveredPerRelevant: meanCount(discoveredSet, relevant),
    meanDiscoveredPerIrrelevant: meanCount(discoveredSet, irrelevant),
    meanKeywordsPerRelevant: meanAll,
    meanKeywordsPerIrrelevant: meanCount(all, irrelevant),
    initialKeywords: new Set(seeds).size,
    discoveredKeywords: discovered.length,
    shortcut1: shortcutWidth(meanAll),
    relevantDocuments: relevant.length,
    irrelevantDocuments: irrelevant.length,
  };
}

/** SHORTCUT1 from a mean keyword count: ceil, at least 1 (NaN gives 1). */
export function shortcutWidth(meanKeywordCount: number): number {
  return Number.isFinite(meanKeywordCount) ? Math.max(1, Math.ceil(meanKeywordCount)) : 1;
}
