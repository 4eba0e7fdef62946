/**
 * An in-memory table of word vectors: vocabulary, a row-major Float32 matrix and each row's L2
 * norm. Lookup, cosine similarity and nearest neighbours (brute force: 250k x 100 takes ~30 ms).
 */

/**
 * What a reader of word vectors needs: their dimension and a word's vector. A {@link WordVectors}
 * table fits, and so does a tiny test map.
 */
export interface WordVectorLookup {
  readonly dim: number;
  /** The vector of `word`, or undefined if it has none. */
  get(word: string): Float32Array | undefined;
}

/** A word and its cosine similarity to a query. */
export interface Neighbour {
  word: string;
  similarity: number;
}

/** Word vectors with a vocabulary. Immutable once built. */
export class WordVectors {
  /** Number of words. */
  readonly size: number;
  private readonly index: Map<string, number>;

  /**
   * @param words vocabulary, row order of `matrix`
   * @param dim vector dimension
   * @param matrix row-major, `words.length * dim` floats
   * @param norms L2 norm of each row; computed when omitted
   * @throws RangeError if the sizes disagree
   */
  constructor(
    readonly words: readonly string[],
    readonly dim: number,
    readonly matrix: Float32Array,
    readonly norms: Float32Array = computeNorms(matrix, dim),
  ) {
    if (matrix.length !== words.length * dim || norms.length !== words.length) {
      throw new RangeError(`WordVectors: ${words.length} words x ${dim} dims do not match the matrix`);
    }
    this.size = words.length;
    this.index = new Map();
    for (let i = 0; i < words.length; i++) this.index.set(words[i] as string, i);
  }

  /** Row of `word`, or -1 if the word has no vector. */
  indexOf(word: string): number {
    return this.index.get(word) ?? -1;
  }

  /** True if `word` has a vector. */
  has(word: string): boolean {
    return this.index.has(word);
  }

  /** The vector of `word` (a view into the matrix: do not modify), or undefined. */
  get(word: string): Float32Array | undefined {
    const i = this.index.get(word);
    return i === undefined ? undefined : this.row(i);
  }

  /** Row `i` as a view into the matrix. */
  row(i: number): Float32Array {
    return this.matrix.subarray(i * this.dim, (i + 1) * this.dim);
  }

  /** Cosine similarity of two words in [-1, 1]; undefined if either has no vector. */
  similarity(a: string, b: string): number | undefined {
    const i = this.index.get(a);
    const j = this.index.get(b);
    if (i === undefined || j === undefined) return undefined;
    return this.rowCosine(i, j);
  }

  /** Cosine similarity of rows `i` and `j` (0 if either is the zero vector). */
  rowCosine(i: number, j: number): number {
    const d = this.dim;
    const m = this.matrix;
    let dot = 0;
    for (let k = 0; k < d; k++) dot += (m[i * d + k] as number) * (m[j * d + k] as number);
    const n = (this.norms[i] as number) * (this.norms[j] as number);
    return n > 0 ? dot / n : 0;
  }

  /**
   * Cosine similarity of every row with `query` (any vector of length `dim`), in row order.
   * @throws RangeError if `query` has the wrong length
   */
  cosineAll(query: Float32Array): Float32Array {
    if (query.length !== this.dim) throw new RangeError(`query has ${query.length} dims, need ${this.dim}`);
    let qn = 0;
    for (let k = 0; k < this.dim; k++) qn += (query[k] as number) ** 2;
    qn = Math.sqrt(qn);
    const out = new Float32Array(this.size);
    if (qn === 0) return out;
    const d = this.dim;
    const m = this.matrix;
    for (let i = 0; i < this.size; i++) {
      let dot = 0;
      const base = i * d;
      for (let k = 0; k < d; k++) dot += (m[base + k] as number) * (query[k] as number);
      const n = (this.norms[i] as number) * qn;
      out[i] = n > 0 ? dot / n : 0;
    }
    return out;
  }

  /**
   * The `k` words most similar to `wordOrVector` (the word itself excluded), best first, ties
   * broken by vocabulary order. Returns [] for an unknown word.
   */
  nearest(wordOrVector: string | Float32Array, k = 10): Neighbour[] {
    const self = typeof wordOrVector === 'string' ? this.indexOf(wordOrVector) : -1;
    const query = typeof wordOrVector === 'string' ? (self >= 0 ? this.row(self) : undefined) : wordOrVector;
    if (query === undefined || k <= 0) return [];
    const sims = this.cosineAll(query);
    // Keep a small sorted list: k is small, the vocabulary is large.
    const best: number[] = [];
    for (let i = 0; i < sims.length; i++) {
      if (i === self) continue;
      const s = sims[i] as number;
      if (best.length === k && s <= (sims[best[k - 1] as number] as number)) continue;
      let at = best.length;
      while (at > 0 && (sims[best[at - 1] as number] as number) < s) at--;
      best.splice(at, 0, i);
      if (best.length > k) best.pop();
    }
    return best.map((i) => ({ word: this.words[i] as string, similarity: sims[i] as number }));
  }
}

/** L2 norm of each row of a row-major matrix with `dim` columns. */
export function computeNorms(matrix: Float32Array, dim: number): Float32Array {
  const rows = Math.floor(matrix.length / dim);
  const norms = new Float32Array(rows);
  for (let i = 0; i < rows; i++) {
    let s = 0;
    for (let k = 0; k < dim; k++) s += (matrix[i * dim + k] as number) ** 2;
    norms[i] = Math.sqrt(s);
  }
  return norms;
}
