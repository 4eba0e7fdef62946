/**
 * The classifier pool H of RLwCS (Partalas et al., ECAI 2008, sections 2-3): a neural network,
 * a linear SVM, a kernel naive Bayes and a pruned decision tree, trained on TF-IDF vectors of
 * documents labelled relevant or irrelevant, plus the majority scheme S.
 *
 * Document vectors (section 3: "TF-IDF vectors using the weighted scheme proposed by Salton and
 * Buckley"): the `ltc` weights (1 + ln tf) * ln(N / df), cosine-normalised, over the
 * `features` terms of highest information gain in the training documents (the paper does not
 * say how many terms; WEKA's learners, the tree and the kernel naive Bayes above all, need a
 * few hundred dense attributes, not a whole vocabulary).
 */
import type { Rng } from '../../common/index.js';
import {
  type DenseClassifier,
  trainDecisionTree,
  trainKernelNaiveBayes,
  trainLinearSvm,
  trainTinyMlp,
} from '../../relevance/index.js';

/** The actions of RLwCS: the four classifiers and the majority scheme S, in this order. */
export const POOL_ACTIONS = ['nn', 'svm', 'nb', 'dt', 'vote'] as const;
export type PoolAction = (typeof POOL_ACTIONS)[number];
/** Index of the SVM action (the paper's baseline crawler scores every URL with it). */
export const SVM_ACTION = 1;

/** Passes of the network's back-propagation per training of the pool. */
const MLP_EPOCHS = 10;

/** Binary entropy in bits. */
function entropy(p: number): number {
  return p <= 0 || p >= 1 ? 0 : -p * Math.log2(p) - (1 - p) * Math.log2(1 - p);
}

/** TF-IDF over selected terms; builds dense vectors. */
export class TermSpace {
  private constructor(
    private readonly index: Map<string, number>,
    private readonly idf: Float32Array,
  ) {}

  get size(): number {
    return this.idf.length;
  }

  /**
   * The `features` terms of highest information gain (term present or absent against the
   * label), among terms in at least 2 documents; ties by term.
   */
  static select(docs: readonly (readonly string[])[], labels: Uint8Array, features: number): TermSpace {
    const df = new Map<string, [number, number]>(); // term -> [docs, relevant docs]
    docs.forEach((tokens, i) => {
      for (const t of new Set(tokens)) {
        const c = df.get(t) ?? [0, 0];
        c[0]++;
        if (labels[i] === 1) c[1]++;
        df.set(t, c);
      }
    });
    const n = docs.length;
    let pos = 0;
    for (const y of labels) pos += y;
    const base = entropy(pos / n);
    const scored: { t: string; gain: number; df: number }[] = [];
    for (const [t, [d, dp]] of df) {
      if (d < 2) continue;
      const absent = n - d;
      const gain =
        base - (d / n) * entropy(dp / d) - (absent > 0 ? (absent / n) * entropy((pos - dp) / absent) : 0);
      scored.push({ t, gain, df: d });
    }
    scored.sort((a, b) => b.gain - a.gain || (a.t < b.t ? -1 : a.t > b.t ? 1 : 0));
    const chosen = scored.slice(0, features);
    const index = new Map(chosen.map((s, j) => [s.t, j]));
    const idf = Float32Array.from(chosen, (s) => Math.log(n / s.df) + 1e-3);
    return new TermSpace(index, idf);
  }

  /** The ltc vector of `tokens` (all zeros if none of the terms occurs). */
  vector(tokens: readonly string[]): Float32Array {
    const x = new Float32Array(this.idf.length);
    for (const t of tokens) {
      const j = this.index.get(t);
      if (j !== undefined) x[j] = (x[j] as number) + 1;
    }
    let norm = 0;
    for (let j = 0; j < x.length; j++) {
      const tf = x[j] as number;
      if (tf === 0) continue;
      const w = (1 + Math.log(tf)) * (this.idf[j] as number);
      x[j] = w;
      norm += w * w;
    }
    if (norm > 0) {
      const s = 1 / Math.sqrt(norm);
      for (let j = 0; j < x.length; j++) x[j] = (x[j] as number) * s;
    }
    return x;
  }
}

/** The trained pool: a term space and the four classifiers. */
export class ClassifierPool {
  private constructor(
    readonly terms: TermSpace,
    private readonly classifiers: readonly DenseClassifier[],
  ) {}

  /** Trains the four classifiers on token lists with 0/1 labels (both classes needed). */
  static train(
    docs: readonly (readonly string[])[],
    labels: Uint8Array,
    features: number,
    rng: Rng,
  ): ClassifierPool {
    const terms = TermSpace.select(docs, labels, features);
    const data = { xs: docs.map((d) => terms.vector(d)), labels };
    return new ClassifierPool(terms, [
      // 10 epochs, not WEKA's 500: the pool is retrained during the crawl, and the network is
      // the most expensive learner (about 1 s for 3,000 pages at 10 epochs on a loaded core).
      trainTinyMlp(data, rng.fork('nn'), { epochs: MLP_EPOCHS }),
      trainLinearSvm(data, rng.fork('svm')),
      trainKernelNaiveBayes(data),
      trainDecisionTree(data, rng.fork('dt')),
    ]);
  }

  /**
   * P(relevant) of `x` by `action`. The majority scheme S(x) = argmax_c sum_m h_m(x, c)
   * (section 3) picks the class with the larger summed probability; as a score for ordering we
   * use that sum for the relevant class divided by the pool size, which is >= 0.5 exactly when
   * S says relevant.
   */
  score(action: number, x: Float32Array): number {
    if (action < this.classifiers.length) return (this.classifiers[action] as DenseClassifier).probability(x);
    let sum = 0;
    for (const c of this.classifiers) sum += c.probability(x);
    return sum / this.classifiers.length;
  }
}
