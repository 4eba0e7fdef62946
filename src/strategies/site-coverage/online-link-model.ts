/**
 * The online link model of `coverage`: logistic regression for P(a link's target is judged
 * relevant) on binary word features (interned ids: URL, anchor and context words, as ACHE's link
 * classifier) plus a few real features (./coverage-strategy.ts: the logits of the parent page's
 * P(relevant), of the target site's and the hub's yields, and two indicators). The first real
 * feature's weight starts at 1 and every other weight at 0, so before any update the model says
 * what best-first says (the parent's probability); each fetched link is one AdaGrad step (Duchi,
 * Hazan and Singer, JMLR 2011) on the log loss, so the model learns from the first page on and
 * never retrains from scratch.
 */

/** Clamp for a probability before its logit (a judge's 0 or 1 would be infinite). */
const CLAMP = 0.01;

/** log(p / (1 - p)) with p clamped to [0.01, 0.99]. */
export function logit(p: number): number {
  const q = Math.min(Math.max(p, CLAMP), 1 - CLAMP);
  return Math.log(q / (1 - q));
}

import { ConfigError } from '../../common/index.js';

function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

/** What an {@link OnlineLinkModel} has learned. */
export interface OnlineLinkModelState {
  weights: Float64Array;
  squares: Float64Array;
  bias: number;
  biasSquares: number;
  realWeights: Float64Array;
  realSquares: Float64Array;
  updates: number;
}

export class OnlineLinkModel {
  /** Weight of each word id ([ids]; grown as ids appear). */
  private weights = new Float64Array(1024);
  /** AdaGrad's sum of squared gradients per word id. */
  private squares = new Float64Array(1024);
  private bias = 0;
  private biasSquares = 0;
  /** Weights of the real features ([realCount]); the first starts at 1. */
  private readonly realWeights: Float64Array;
  private readonly realSquares: Float64Array;
  private updates = 0;

  /**
   * @param learningRate AdaGrad step size (> 0).
   * @param realCount number of real features (>= 1; the first is the parent's logit).
   */
  constructor(
    private readonly learningRate: number,
    realCount = 1,
  ) {
    this.realWeights = new Float64Array(realCount);
    this.realWeights[0] = 1;
    this.realSquares = new Float64Array(realCount);
  }

  /** The weight of real feature `i` (for reports and tests). */
  realWeight(i: number): number {
    return this.realWeights[i] as number;
  }

  /** Number of updates so far. */
  get updateCount(): number {
    return this.updates;
  }

  /** P(target relevant) of a link with word ids `ids` and real features `real` ([realCount]). */
  probability(ids: ArrayLike<number>, real: ArrayLike<number>): number {
    return sigmoid(this.decision(ids, real));
  }

  /** One AdaGrad step on the log loss of the link's outcome `label` (0 or 1, or a probability). */
  update(ids: ArrayLike<number>, real: ArrayLike<number>, label: number): void {
    const g = sigmoid(this.decision(ids, real)) - label; // d loss / d decision
    if (g === 0) return;
    this.updates++;
    const rate = this.learningRate;
    const g2 = g * g;
    this.biasSquares += g2;
    this.bias -= (rate * g) / Math.sqrt(this.biasSquares);
    for (let i = 0; i < this.realWeights.length; i++) {
      const x = real[i] as number;
      if (x === 0) continue;
      this.realSquares[i] = (this.realSquares[i] as number) + g2 * x * x;
      this.realWeights[i] =
        (this.realWeights[i] as number) - (rate * g * x) / Math.sqrt(this.realSquares[i] as number);
    }
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k] as number;
      this.ensure(id);
      const s = (this.squares[id] as number) + g2;
      this.squares[id] = s;
      this.weights[id] = (this.weights[id] as number) - (rate * g) / Math.sqrt(s);
    }
  }

  /** The weights, AdaGrad sums and update count, for checkpoints. */
  learnedState(): OnlineLinkModelState {
    return {
      weights: this.weights.slice(),
      squares: this.squares.slice(),
      bias: this.bias,
      biasSquares: this.biasSquares,
      realWeights: this.realWeights.slice(),
      realSquares: this.realSquares.slice(),
      updates: this.updates,
    };
  }

  /** Loads a {@link OnlineLinkModel.learnedState}. @throws ConfigError if its real features differ. */
  loadLearnedState(state: OnlineLinkModelState): void {
    if (state.realWeights.length !== this.realWeights.length || state.weights.length !== state.squares.length)
      throw new ConfigError(
        `link model checkpoint has ${state.realWeights.length} real features, expected ${this.realWeights.length}`,
        { context: { field: 'model' } },
      );
    this.weights = state.weights.slice();
    this.squares = state.squares.slice();
    this.bias = state.bias;
    this.biasSquares = state.biasSquares;
    this.realWeights.set(state.realWeights);
    this.realSquares.set(state.realSquares);
    this.updates = state.updates;
  }

  private decision(ids: ArrayLike<number>, real: ArrayLike<number>): number {
    let z = this.bias;
    for (let i = 0; i < this.realWeights.length; i++)
      z += (this.realWeights[i] as number) * (real[i] as number);
    const w = this.weights;
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k] as number;
      if (id < w.length) z += w[id] as number;
    }
    return z;
  }

  private ensure(id: number): void {
    if (id < this.weights.length) return;
    const length = Math.max(id + 1, this.weights.length * 2);
    const w = new Float64Array(length);
    w.set(this.weights);
    this.weights = w;
    const s = new Float64Array(length);
    s.set(this.squares);
    this.squares = s;
  }
}

/**
 * `state` with only the word ids the model was updated on (a non-zero AdaGrad sum), renumbered
 * 0.. in their order, and those ids: a word that never took part in an update has weight 0.
 */
export function trainedOnly(state: OnlineLinkModelState): { state: OnlineLinkModelState; ids: number[] } {
  const ids: number[] = [];
  for (let id = 0; id < state.squares.length; id++) if ((state.squares[id] as number) > 0) ids.push(id);
  const weights = new Float64Array(ids.length);
  const squares = new Float64Array(ids.length);
  ids.forEach((id, i) => {
    weights[i] = state.weights[id] as number;
    squares[i] = state.squares[id] as number;
  });
  return { state: { ...state, weights, squares }, ids };
}
