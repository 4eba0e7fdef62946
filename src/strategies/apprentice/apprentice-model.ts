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
 */

/** Multinomial naive Bayes with Laplace smoothing, trained incrementally. */
export class ApprenticeModel {
  /** counts[2 * id + cls]: occurrences of feature `id` in instances of class `cls`. */
  private counts = new Float64Array(1024);
  private readonly totals = [0, 0];
  private readonly instances = [0, 0];
  /** Features seen in training (the vocabulary V of the smoothing). */
  private vocabulary = 0;
  /** Per feature, ln P(f | HIGH) - ln P(f | LOW), rebuilt after `add`; 0 for unseen features. */
  private weights: Float64Array | undefined;

  /** @param alpha Laplace smoothing pseudo-count (the paper's Rainbow uses 1). */
  constructor(private readonly alpha: number) {}

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
      if ((this.counts[2 * id] as number) + (this.counts[2 * id + 1] as number) === 0) this.vocabulary++;
      this.counts[2 * id + cls] = (this.counts[2 * id + cls] as number) + 1;
      this.totals[cls] = (this.totals[cls] as number) + 1;
    }
  }

  /**
   * ln P(HIGH | features) - ln P(LOW | features). Features never seen in training are left out
   * (they would only add the classes' smoothing difference). 0 before {@link isReady}.
   */
  logOdds(features: Int32Array): number {
    if (!this.isReady) return 0;
    const weights = this.weights ?? this.buildWeights();
    let score = Math.log(this.instances[1] as number) - Math.log(this.instances[0] as number);
    for (const id of features) if (id < weights.length) score += weights[id] as number;
    return score;
  }

  /** The per-feature log-likelihood ratios under the current counts (one pass over V). */
  private buildWeights(): Float64Array {
    const a = this.alpha;
    const v = this.vocabulary;
    const denomHigh = Math.log((this.totals[1] as number) + a * v);
    const denomLow = Math.log((this.totals[0] as number) + a * v);
    const weights = new Float64Array(this.counts.length / 2);
    for (let id = 0; id < weights.length; id++) {
      const low = this.counts[2 * id] as number;
      const high = this.counts[2 * id + 1] as number;
      if (low + high === 0) continue;
      weights[id] = Math.log(high + a) - denomHigh - (Math.log(low + a) - denomLow);
    }
    this.weights = weights;
    return weights;
  }

  /** P(HIGH | features), the paper's prediction. */
  probability(features: Int32Array): number {
    return 1 / (1 + Math.exp(-this.logOdds(features)));
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
