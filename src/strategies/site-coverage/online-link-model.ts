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
import { grownArray } from '../../frontier/index.js';

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

/** The model's weights and their AdaGrad sums. */
interface Weights {
  /** Weight of each word id (grown as ids appear; empty: no word weights). */
  words: Float64Array;
  /** AdaGrad's sum of squared gradients per word id. */
  squares: Float64Array;
  bias: number;
  biasSquares: number;
  /** Weights of the real features ([realCount]). */
  real: Float64Array;
  realSquares: Float64Array;
}

function newWeights(realCount: number, wordCount: number): Weights {
  return {
    words: new Float64Array(wordCount),
    squares: new Float64Array(wordCount),
    bias: 0,
    biasSquares: 0,
    real: new Float64Array(realCount),
    realSquares: new Float64Array(realCount),
  };
}

/**
 * The decision of weights `b` for a link (bias, then real features, then words) whose word ids
 * are `ids[from..to)`.
 */
function decisionOf(
  b: Weights,
  ids: ArrayLike<number>,
  from: number,
  to: number,
  real: ArrayLike<number>,
): number {
  let z = b.bias;
  for (let i = 0; i < b.real.length; i++) z += (b.real[i] as number) * (real[i] as number);
  const w = b.words;
  if (w.length === 0) return z;
  for (let k = from; k < to; k++) {
    const id = ids[k] as number;
    if (id < w.length) z += w[id] as number;
  }
  return z;
}

/** One AdaGrad step of weights `b` with gradient `g` of the decision. */
function step(b: Weights, ids: ArrayLike<number>, real: ArrayLike<number>, g: number, rate: number): void {
  const g2 = g * g;
  b.biasSquares += g2;
  b.bias -= (rate * g) / Math.sqrt(b.biasSquares);
  for (let i = 0; i < b.real.length; i++) {
    const x = real[i] as number;
    if (x === 0) continue;
    b.realSquares[i] = (b.realSquares[i] as number) + g2 * x * x;
    b.real[i] = (b.real[i] as number) - (rate * g * x) / Math.sqrt(b.realSquares[i] as number);
  }
  for (let k = 0; k < ids.length; k++) {
    const id = ids[k] as number;
    if (id >= b.words.length) {
      const length = Math.max(id + 1, b.words.length * 2);
      b.words = grownArray(b.words, length);
      b.squares = grownArray(b.squares, length);
    }
    const s = (b.squares[id] as number) + g2;
    b.squares[id] = s;
    b.words[id] = (b.words[id] as number) - (rate * g) / Math.sqrt(s);
  }
}

export class OnlineLinkModel {
  /** The weights every link is scored by; the first real feature's starts at 1. */
  private readonly shared: Weights;
  private updates = 0;

  /**
   * @param learningRate AdaGrad step size (> 0).
   * @param realCount number of real features (>= 1; the first is the parent's logit).
   */
  constructor(
    private readonly learningRate: number,
    realCount = 1,
  ) {
    this.shared = newWeights(realCount, 1024);
    this.shared.real[0] = 1;
  }

  /** The weight of real feature `i` (for reports and tests). */
  realWeight(i: number): number {
    return this.shared.real[i] as number;
  }

  /** Number of updates so far. */
  get updateCount(): number {
    return this.updates;
  }

  /** P(target relevant) of a link with word ids `ids` and real features `real` ([realCount]). */
  probability(ids: ArrayLike<number>, real: ArrayLike<number>): number {
    return this.probabilityIn(ids, 0, ids.length, real);
  }

  /**
   * {@link OnlineLinkModel.probability} of a link whose word ids are `pool[from..to)`: a frontier
   * rescored link by link reads them where they are kept: a subarray per link was over a third of
   * the time of summing its weights (links of 60 ids in a pool on a resizable buffer, Node 20:
   * 260 ns a link with a view each, 165 ns in place).
   */
  probabilityIn(pool: ArrayLike<number>, from: number, to: number, real: ArrayLike<number>): number {
    return sigmoid(decisionOf(this.shared, pool, from, to, real));
  }

  /** One AdaGrad step on the log loss of the link's outcome `label` (0 or 1, or a probability). */
  update(ids: ArrayLike<number>, real: ArrayLike<number>, label: number): void {
    const g = sigmoid(decisionOf(this.shared, ids, 0, ids.length, real)) - label; // d loss / d decision
    if (g === 0) return;
    this.updates++;
    step(this.shared, ids, real, g, this.learningRate);
  }

  /** The weights, AdaGrad sums and update count, for checkpoints. */
  learnedState(): OnlineLinkModelState {
    const w = this.shared;
    return {
      weights: w.words.slice(),
      squares: w.squares.slice(),
      bias: w.bias,
      biasSquares: w.biasSquares,
      realWeights: w.real.slice(),
      realSquares: w.realSquares.slice(),
      updates: this.updates,
    };
  }

  /** Loads a {@link OnlineLinkModel.learnedState}. @throws ConfigError if its real features differ. */
  loadLearnedState(state: OnlineLinkModelState): void {
    const w = this.shared;
    if (state.realWeights.length !== w.real.length || state.weights.length !== state.squares.length)
      throw new ConfigError(
        `link model checkpoint has ${state.realWeights.length} real features, expected ${w.real.length}`,
        { context: { field: 'model' } },
      );
    w.words = state.weights.slice();
    w.squares = state.squares.slice();
    w.bias = state.bias;
    w.biasSquares = state.biasSquares;
    w.real.set(state.realWeights);
    w.realSquares.set(state.realSquares);
    this.updates = state.updates;
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
