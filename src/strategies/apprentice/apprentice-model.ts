/**
 * The apprentice learner: a two-class multinomial naive Bayes over interned <token, offset>
 * feature ids that takes new instances in batches without starting over (Chakrabarti et al.
 * 2002, section 2.3: "simple naive Bayes ... need not start learning from scratch; they can
 * accept the additional training data with a small additional computational cost").
 *
 * Classes: LOW (0) and HIGH (1) relevance of the link's target v, the paper's two-bucket
 * special case of Torgo and Gama; the prediction is the HIGH class's probability, kept here as
 * log-odds so that the many small term probabilities of long contexts never round to 0 or 1
 * and frontier keys stay distinct.
 *
 * DOM window: the model can predict with only the features at |offset| <= w for any w from 0 to
 * the largest offset it was built for, as if it had been trained on those features alone (the
 * smoothing's vocabulary and the class totals are kept per offset), so that the crawler can
 * choose w by how well each window predicts (section 3.4 chose dmax by validation accuracy).
 */

import { ConfigError } from '../../common/index.js';

/** What an {@link ApprenticeModel} has learned. */
export interface ApprenticeModelState {
  counts: Float64Array;
  instances: [number, number];
  totals: Float64Array;
  vocabulary: Float64Array;
  window: number;
}

/** Multinomial naive Bayes with Laplace smoothing, trained incrementally. */
export class ApprenticeModel {
  /** counts[2 * id + cls]: occurrences of feature `id` in instances of class `cls`. */
  private counts = new Float64Array(1024);
  private readonly instances = [0, 0];
  /** totals[2 * d + cls]: occurrences of features at |offset| d in instances of class `cls`. */
  private readonly totals: Float64Array;
  /** vocabulary[d]: features at |offset| d seen in training (the smoothing's V, per offset). */
  private readonly vocabulary: Float64Array;
  /**
   * Per feature, ln (count in HIGH + alpha) - ln (count in LOW + alpha), and per window w the
   * classes' smoothing denominators' difference; rebuilt after `add`. 0 for unseen features.
   */
  private weights: { raw: Float64Array; denominator: Float64Array } | undefined;
  /** The window {@link logOdds} uses unless told another. */
  window: number;

  /**
   * @param alpha Laplace smoothing pseudo-count (the paper's Rainbow uses 1)
   * @param maxDistance the largest |offset| of any feature (the crawler's dMax)
   * @param distanceOf |offset| of a feature id, 0 to maxDistance
   */
  constructor(
    private readonly alpha: number,
    private readonly maxDistance: number,
    private readonly distanceOf: (id: number) => number,
  ) {
    this.totals = new Float64Array(2 * (maxDistance + 1));
    this.vocabulary = new Float64Array(maxDistance + 1);
    this.window = maxDistance;
  }

  /** Training instances per class, [LOW, HIGH]. */
  get instanceCounts(): readonly [number, number] {
    return [this.instances[0] as number, this.instances[1] as number];
  }

  /** True once both classes have instances (before that every link gets the same score). */
  get isReady(): boolean {
    return (this.instances[0] as number) > 0 && (this.instances[1] as number) > 0;
  }

  /** Adds one instance: the link's feature ids (repeats count) and whether v was relevant. */
  add(features: Int32Array, isHigh: boolean): void {
    this.weights = undefined;
    const cls = isHigh ? 1 : 0;
    this.instances[cls] = (this.instances[cls] as number) + 1;
    for (const id of features) {
      this.grow(id);
      const d = this.distanceOf(id);
      if ((this.counts[2 * id] as number) + (this.counts[2 * id + 1] as number) === 0) {
        this.vocabulary[d] = (this.vocabulary[d] as number) + 1;
      }
      this.counts[2 * id + cls] = (this.counts[2 * id + cls] as number) + 1;
      this.totals[2 * d + cls] = (this.totals[2 * d + cls] as number) + 1;
    }
  }

  /**
   * ln P(HIGH | features) - ln P(LOW | features) with the features at |offset| <= `window` (by
   * default {@link window}). Features never seen in training are left out (they would only add
   * the classes' smoothing difference). 0 before {@link isReady}.
   */
  logOdds(features: Int32Array, window = this.window): number {
    if (!this.isReady) return 0;
    const { raw, denominator } = this.weights ?? this.buildWeights();
    const perFeature = denominator[window] as number;
    let score = Math.log(this.instances[1] as number) - Math.log(this.instances[0] as number);
    for (const id of features) {
      if (id < raw.length && this.distanceOf(id) <= window && this.isSeen(id)) {
        score += (raw[id] as number) - perFeature;
      }
    }
    return score;
  }

  /** P(HIGH | features), the paper's prediction. */
  probability(features: Int32Array, window = this.window): number {
    return 1 / (1 + Math.exp(-this.logOdds(features, window)));
  }

  /** The counts, totals, vocabulary sizes and window, for checkpoints. */
  learnedState(): ApprenticeModelState {
    return {
      counts: this.counts.slice(),
      instances: [this.instances[0] as number, this.instances[1] as number],
      totals: this.totals.slice(),
      vocabulary: this.vocabulary.slice(),
      window: this.window,
    };
  }

  /** Loads an {@link ApprenticeModel.learnedState}. @throws ConfigError if built for another dMax. */
  loadLearnedState(state: ApprenticeModelState): void {
    if (state.totals.length !== this.totals.length)
      throw new ConfigError(`apprentice checkpoint has another dMax`, { context: { field: 'dMax' } });
    this.counts = state.counts.slice();
    this.instances[0] = state.instances[0];
    this.instances[1] = state.instances[1];
    this.totals.set(state.totals);
    this.vocabulary.set(state.vocabulary);
    this.window = state.window;
    this.weights = undefined;
  }

  private isSeen(id: number): boolean {
    return (this.counts[2 * id] as number) + (this.counts[2 * id + 1] as number) > 0;
  }

  /** The per-feature log-likelihood ratios and per-window denominators (one pass over V). */
  private buildWeights(): { raw: Float64Array; denominator: Float64Array } {
    const a = this.alpha;
    const raw = new Float64Array(this.counts.length / 2);
    for (let id = 0; id < raw.length; id++) {
      const low = this.counts[2 * id] as number;
      const high = this.counts[2 * id + 1] as number;
      if (low + high > 0) raw[id] = Math.log(high + a) - Math.log(low + a);
    }
    const denominator = new Float64Array(this.maxDistance + 1);
    let low = 0;
    let high = 0;
    let v = 0;
    for (let w = 0; w <= this.maxDistance; w++) {
      low += this.totals[2 * w] as number;
      high += this.totals[2 * w + 1] as number;
      v += this.vocabulary[w] as number;
      denominator[w] = Math.log(high + a * v) - Math.log(low + a * v);
    }
    this.weights = { raw, denominator };
    return this.weights;
  }

  private grow(id: number): void {
    if (2 * id + 1 < this.counts.length) return;
    let size = this.counts.length;
    while (2 * id + 1 >= size) size *= 2;
    const next = new Float64Array(size);
    next.set(this.counts);
    this.counts = next;
  }
}
