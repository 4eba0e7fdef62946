/**
 * Watkins's Q(lambda) with linear gradient-descent function approximation and accumulating
 * eligibility traces (Sutton and Barto 1998, section 8.4 and Figure 8.9), as RLwCS uses it
 * (Partalas et al. 2008, section 2). Q(s, a) = w . phi(s, a), where phi(s, a) puts the state
 * features, with the action's own classifier score among them, in action a's block of w (one
 * weight vector per action; with one shared vector the argmax over actions would only ever
 * pick the highest or the lowest classifier score).
 */

import { ConfigError } from '../../common/index.js';

/** Hyperparameters of {@link LinearQLambda}. */
export interface QLambdaOptions {
  actions: number;
  /** Features of one state-action pair (one block). */
  features: number;
  /** Step size, divided by the number of features of a block. */
  alpha: number;
  gamma: number;
  lambda: number;
}

/** What a {@link LinearQLambda} has learned. */
export interface QLambdaState {
  weights: Float64Array;
  traces: Float64Array;
  previous?: { phi: Float64Array; action: number };
  tdErrorSum: number;
  updates: number;
}

export class LinearQLambda {
  /** [actions, features] */
  readonly weights: Float64Array;
  /** [actions, features] */
  private readonly traces: Float64Array;
  /** The (phi, action) of the last step, waiting for its reward; undefined at the start. */
  private previous: { phi: Float64Array; action: number } | undefined;
  private tdErrorSum = 0;
  private updates = 0;

  constructor(private readonly options: QLambdaOptions) {
    this.weights = new Float64Array(options.actions * options.features);
    this.traces = new Float64Array(options.actions * options.features);
  }

  /** Q(s, a) for a state given as one feature block per action ([actions, features]). */
  q(phis: Float64Array, action: number): number {
    const f = this.options.features;
    let sum = 0;
    for (let j = 0; j < f; j++)
      sum += (this.weights[action * f + j] as number) * (phis[action * f + j] as number);
    return sum;
  }

  /** The greedy action (ties by the lowest index). */
  greedy(phis: Float64Array): number {
    let best = 0;
    let bestQ = Number.NEGATIVE_INFINITY;
    for (let a = 0; a < this.options.actions; a++) {
      const q = this.q(phis, a);
      if (q > bestQ) {
        bestQ = q;
        best = a;
      }
    }
    return best;
  }

  /**
   * The update of one step (Sutton and Barto, Figure 8.9): `reward` followed the previous
   * state-action pair and led to the state `phis` ([actions, features]);
   * delta = reward + gamma * max_a Q(s', a) - Q(s, a), then w += alpha / f * delta * e.
   * Nothing to update on the first step. Call {@link act} next with the action taken in `phis`.
   */
  update(reward: number, phis: Float64Array): void {
    const prev = this.previous;
    if (prev === undefined) return;
    const f = this.options.features;
    let qPrev = 0;
    for (let j = 0; j < f; j++)
      qPrev += (this.weights[prev.action * f + j] as number) * (prev.phi[j] as number);
    const delta = reward + this.options.gamma * this.q(phis, this.greedy(phis)) - qPrev;
    const step = (this.options.alpha / f) * delta;
    for (let k = 0; k < this.weights.length; k++) {
      this.weights[k] = (this.weights[k] as number) + step * (this.traces[k] as number);
    }
    this.tdErrorSum += Math.abs(delta);
    this.updates++;
  }

  /**
   * Records the action taken in `phis` (chosen after {@link update}, with the new weights):
   * the traces decay by gamma * lambda if it is greedy and are cut to zero if it is exploratory
   * (Watkins's Q(lambda)); then the pair's features are added to its trace (accumulating).
   */
  act(phis: Float64Array, action: number): void {
    const f = this.options.features;
    const isGreedy = this.q(phis, action) >= this.q(phis, this.greedy(phis));
    const decay = isGreedy ? this.options.gamma * this.options.lambda : 0;
    for (let k = 0; k < this.traces.length; k++) this.traces[k] = (this.traces[k] as number) * decay;
    const phi = phis.slice(action * f, action * f + f);
    for (let j = 0; j < f; j++)
      this.traces[action * f + j] = (this.traces[action * f + j] as number) + (phi[j] as number);
    this.previous = { phi, action };
  }

  /**
   * A step that leads to no state (the next fetch failed: no page, so no features): the
   * terminal update delta = reward - Q(s, a), then the episode ends (traces cleared, no
   * previous pair).
   */
  endEpisode(reward: number): void {
    const prev = this.previous;
    if (prev === undefined) return;
    const f = this.options.features;
    let qPrev = 0;
    for (let j = 0; j < f; j++)
      qPrev += (this.weights[prev.action * f + j] as number) * (prev.phi[j] as number);
    const delta = reward - qPrev;
    const step = (this.options.alpha / f) * delta;
    for (let k = 0; k < this.weights.length; k++) {
      this.weights[k] = (this.weights[k] as number) + step * (this.traces[k] as number);
    }
    this.tdErrorSum += Math.abs(delta);
    this.updates++;
    this.traces.fill(0);
    this.previous = undefined;
  }

  /** Mean |TD error| of the updates so far (0 before the first). */
  /** Weights, traces, the pending step and statistics, for checkpoints. */
  learnedState(): QLambdaState {
    return {
      weights: this.weights.slice(),
      traces: this.traces.slice(),
      ...(this.previous
        ? { previous: { phi: this.previous.phi.slice(), action: this.previous.action } }
        : {}),
      tdErrorSum: this.tdErrorSum,
      updates: this.updates,
    };
  }

  /** Loads a {@link LinearQLambda.learnedState}. @throws ConfigError if its size differs. */
  loadLearnedState(state: QLambdaState): void {
    if (state.weights.length !== this.weights.length || state.traces.length !== this.traces.length)
      throw new ConfigError(
        `Q(lambda) checkpoint has ${state.weights.length} weights, expected ${this.weights.length}`,
        {
          context: { field: 'weights' },
        },
      );
    this.weights.set(state.weights);
    this.traces.set(state.traces);
    this.previous = state.previous
      ? { phi: state.previous.phi.slice(), action: state.previous.action }
      : undefined;
    this.tdErrorSum = state.tdErrorSum;
    this.updates = state.updates;
  }

  get meanTdError(): number {
    return this.updates === 0 ? 0 : this.tdErrorSum / this.updates;
  }

  get updateCount(): number {
    return this.updates;
  }
}
