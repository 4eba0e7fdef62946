/**
 * SARSA(0) with linear function approximation over one-hot (bucketed) features, the learner of
 * Han et al. (ICWE 2018, section 4.3; Sutton and Barto, section 10.1, semi-gradient SARSA):
 *
 *   Q(s, a) = b + sum of w[i] over the active indices i of x(s, a)
 *   delta   = r + gamma * Q(s', a') - Q(s, a)          (a' = the action actually chosen next)
 *   w[i]   += (alpha / active) * delta   for each active i;   b += (alpha / active) * delta
 *
 * The step is divided by the number of active features (as in tile coding), so `alpha` is the
 * share of the TD error one update removes.
 */

/** Weights of a linear Q over one-hot features. */
import { ConfigError } from '../../common/index.js';

/** What a {@link LinearSarsa} has learned. */
export interface LinearSarsaState {
  weights: Float64Array;
  bias: number;
  updates: number;
  absDeltaSum: number;
}

export class LinearSarsa {
  /** One weight per one-hot feature. */
  readonly weights: Float64Array;
  bias = 0;
  updates = 0;
  /** Mean |delta| over the updates so far (NaN before the first). */
  private absDeltaSum = 0;

  /**
   * @param size number of one-hot features
   * @param alpha step size in (0, 1]
   * @param gamma discount in [0, 1]
   */
  constructor(
    size: number,
    private readonly alpha: number,
    private readonly gamma: number,
  ) {
    this.weights = new Float64Array(size);
  }

  /** Q of a state-action given by its active indices. */
  q(active: ArrayLike<number>): number {
    let q = this.bias;
    for (let i = 0; i < active.length; i++) q += this.weights[active[i] as number] as number;
    return q;
  }

  /**
   * One SARSA update of (x, r, x'): `next` is the chosen next action's indices, or undefined at
   * the end of the crawl (then the target is r alone). Returns delta.
   */
  update(active: ArrayLike<number>, reward: number, next: ArrayLike<number> | undefined): number {
    const target = reward + (next === undefined ? 0 : this.gamma * this.q(next));
    const delta = target - this.q(active);
    const step = (this.alpha / (active.length + 1)) * delta; // + 1: the bias is active too
    for (let i = 0; i < active.length; i++) {
      const j = active[i] as number;
      this.weights[j] = (this.weights[j] as number) + step;
    }
    this.bias += step;
    this.updates++;
    this.absDeltaSum += Math.abs(delta);
    return delta;
  }

  /** Weights, bias and update statistics, for checkpoints. */
  learnedState(): LinearSarsaState {
    return {
      weights: this.weights.slice(),
      bias: this.bias,
      updates: this.updates,
      absDeltaSum: this.absDeltaSum,
    };
  }

  /** Loads a {@link LinearSarsa.learnedState}. @throws ConfigError if its feature count differs. */
  loadLearnedState(state: LinearSarsaState): void {
    if (state.weights.length !== this.weights.length)
      throw new ConfigError(
        `SARSA checkpoint has ${state.weights.length} weights, expected ${this.weights.length}`,
        {
          context: { field: 'weights' },
        },
      );
    this.weights.set(state.weights);
    this.bias = state.bias;
    this.updates = state.updates;
    this.absDeltaSum = state.absDeltaSum;
  }

  /** Mean |TD error| of all updates; NaN before the first. */
  get meanAbsDelta(): number {
    return this.updates === 0 ? Number.NaN : this.absDeltaSum / this.updates;
  }
}
