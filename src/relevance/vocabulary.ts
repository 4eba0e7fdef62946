/**
 * Bag-of-words vocabulary and TF-IDF vectors for the linear SVM (ACHE) and naive Bayes.
 * TF-IDF as in scikit-learn's TfidfVectorizer with sublinear_tf: (1 + ln tf) * idf,
 * idf = ln((1 + n) / (1 + df)) + 1, rows scaled to unit L2 norm.
 */
import type { VocabularyConfig } from './config.js';

/** A sparse vector: sorted column indices and their values. */
export interface SparseVector {
  indices: Int32Array;
  values: Float32Array;
}

/** Words and their document frequencies. */
export class Vocabulary {
  private readonly index: Map<string, number>;
  /** Per-column counts of {@link counts}, all zero between calls. */
  private scratch: Int32Array | undefined;

  /**
   * @param words column order
   * @param docFreq documents containing each word (training set)
   * @param documents number of training documents
   */
  constructor(
    readonly words: readonly string[],
    readonly docFreq: Float32Array,
    readonly documents: number,
  ) {
    this.index = new Map(words.map((w, i) => [w, i]));
  }

  /** Number of columns. */
  get size(): number {
    return this.words.length;
  }

  /** Column of `word`, or -1. */
  indexOf(word: string): number {
    return this.index.get(word) ?? -1;
  }

  /**
   * The `maxFeatures` words of highest document frequency with at least `minDocFreq` documents
   * (ties by word). When that leaves no word (tiny corpora), `minDocFreq` falls back to 1.
   */
  static build(docs: readonly (readonly string[])[], config: VocabularyConfig): Vocabulary {
    const df = new Map<string, number>();
    for (const d of docs) for (const w of new Set(d)) df.set(w, (df.get(w) ?? 0) + 1);
    let kept = [...df.entries()].filter(([, n]) => n >= config.minDocFreq);
    if (kept.length === 0) kept = [...df.entries()];
    kept.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    kept = kept.slice(0, config.maxFeatures);
    kept.sort((a, b) => (a[0] < b[0] ? -1 : 1));
    return new Vocabulary(
      kept.map(([w]) => w),
      Float32Array.from(kept.map(([, n]) => n)),
      docs.length,
    );
  }

  /** Raw term counts of the known words of `tokens`, sorted by column. */
  counts(tokens: readonly string[]): SparseVector {
    // A dense scratch row and the list of columns touched: a Map per call cost more than the
    // lookups themselves on long pages.
    this.scratch ??= new Int32Array(this.words.length);
    const scratch = this.scratch;
    const touched: number[] = [];
    for (const t of tokens) {
      const i = this.index.get(t);
      if (i === undefined) continue;
      if (scratch[i] === 0) touched.push(i);
      scratch[i] = (scratch[i] as number) + 1;
    }
    const indices = Int32Array.from(touched).sort();
    const values = new Float32Array(indices.length);
    for (let k = 0; k < indices.length; k++) {
      const i = indices[k] as number;
      values[k] = scratch[i] as number;
      scratch[i] = 0;
    }
    return { indices, values };
  }

  /** Inverse document frequencies (smoothed). */
  idf(): Float32Array {
    return Float32Array.from(this.docFreq, (df) => Math.log((1 + this.documents) / (1 + df)) + 1);
  }
}

/** TF-IDF vector of `tokens`: sublinear tf times `idf`, unit L2 norm (all zero if no known word). */
export function tfidf(vocab: Vocabulary, idf: Float32Array, tokens: readonly string[]): SparseVector {
  const v = vocab.counts(tokens);
  let norm = 0;
  for (let k = 0; k < v.indices.length; k++) {
    const x = (1 + Math.log(v.values[k] as number)) * (idf[v.indices[k] as number] as number);
    v.values[k] = x;
    norm += x * x;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (let k = 0; k < v.values.length; k++) v.values[k] = (v.values[k] as number) / norm;
  return v;
}

/** Dot product of a sparse vector with a dense one. */
export function sparseDot(x: SparseVector, w: ArrayLike<number>): number {
  let s = 0;
  for (let k = 0; k < x.indices.length; k++)
    s += (x.values[k] as number) * (w[x.indices[k] as number] as number);
  return s;
}
