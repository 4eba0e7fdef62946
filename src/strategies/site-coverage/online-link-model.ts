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
  /** Group 1's weights (a model with groups); word arrays indexed as `weights`. */
  group?: GroupWeights;
}

/**
 * The weights one group of links adds to the shared ones (Daume's "frustratingly easy" domain
 * adaptation, ACL 2007): a link of the group is scored by the shared weights plus these, and an
 * update moves both, so the group starts as the shared model and learns its own differences from
 * its own links only. All start at 0.
 */
export interface GroupWeights {
  words: Float64Array;
  squares: Float64Array;
  bias: number;
  biasSquares: number;
  real: Float64Array;
  realSquares: Float64Array;
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
  /** Weights of group 1 (see {@link GroupWeights}); undefined when the model has no groups. */
  private readonly group: GroupWeights | undefined;

  /**
   * @param learningRate AdaGrad step size (> 0).
   * @param realCount number of real features (>= 1; the first is the parent's logit).
   * @param groupWords 'none': no groups (every link is group 0); 'real': group 1 has its own bias
   *   and real-feature weights on top of the shared ones; 'all': its own word weights too.
   */
  constructor(
    private readonly learningRate: number,
    realCount = 1,
    private readonly groupWords: 'none' | 'real' | 'all' = 'none',
  ) {
    this.realWeights = new Float64Array(realCount);
    this.realWeights[0] = 1;
    this.realSquares = new Float64Array(realCount);
    if (groupWords !== 'none')
      this.group = {
        words: new Float64Array(groupWords === 'all' ? 1024 : 0),
        squares: new Float64Array(groupWords === 'all' ? 1024 : 0),
        bias: 0,
        biasSquares: 0,
        real: new Float64Array(realCount),
        realSquares: new Float64Array(realCount),
      };
  }

  /** The weight of real feature `i` (for reports and tests). */
  realWeight(i: number): number {
    return this.realWeights[i] as number;
  }

  /** Number of updates so far. */
  get updateCount(): number {
    return this.updates;
  }

  /**
   * P(target relevant) of a link with word ids `ids` and real features `real` ([realCount]), of
   * group `group` (1 adds the group's weights when the model has groups).
   */
  probability(ids: ArrayLike<number>, real: ArrayLike<number>, group = 0): number {
    return sigmoid(this.decision(ids, real, group));
  }

  /** One AdaGrad step on the log loss of the link's outcome `label` (0 or 1, or a probability). */
  update(ids: ArrayLike<number>, real: ArrayLike<number>, label: number, group = 0): void {
    const g = sigmoid(this.decision(ids, real, group)) - label; // d loss / d decision
    if (g === 0) return;
    if (group === 1 && this.group !== undefined) this.updateGroup(this.group, ids, real, g);
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
      ...(this.group === undefined ? {} : { group: copyGroup(this.group) }),
    };
  }

  /** Loads a {@link OnlineLinkModel.learnedState}. @throws ConfigError if its real features differ. */
  loadLearnedState(state: OnlineLinkModelState): void {
    if (state.realWeights.length !== this.realWeights.length || state.weights.length !== state.squares.length)
      throw new ConfigError(
        `link model checkpoint has ${state.realWeights.length} real features, expected ${this.realWeights.length}`,
        { context: { field: 'model' } },
      );
    if ((state.group === undefined) !== (this.group === undefined))
      throw new ConfigError(
        `link model checkpoint ${state.group === undefined ? 'has no' : 'has'} first-page weights; resume with the coverage settings of the crawl`,
        { context: { field: 'model' } },
      );
    this.weights = state.weights.slice();
    this.squares = state.squares.slice();
    this.bias = state.bias;
    this.biasSquares = state.biasSquares;
    this.realWeights.set(state.realWeights);
    this.realSquares.set(state.realSquares);
    this.updates = state.updates;
    if (state.group !== undefined && this.group !== undefined)
      Object.assign(this.group, copyGroup(state.group));
  }

  private decision(ids: ArrayLike<number>, real: ArrayLike<number>, group: number): number {
    let z = this.bias;
    for (let i = 0; i < this.realWeights.length; i++)
      z += (this.realWeights[i] as number) * (real[i] as number);
    const w = this.weights;
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k] as number;
      if (id < w.length) z += w[id] as number;
    }
    const b = this.group;
    if (group !== 1 || b === undefined) return z;
    z += b.bias;
    for (let i = 0; i < b.real.length; i++) z += (b.real[i] as number) * (real[i] as number);
    const v = b.words;
    for (let k = 0; k < ids.length && v.length > 0; k++) {
      const id = ids[k] as number;
      if (id < v.length) z += v[id] as number;
    }
    return z;
  }

  /** The group's share of an AdaGrad step with gradient `g` of the decision. */
  private updateGroup(b: GroupWeights, ids: ArrayLike<number>, real: ArrayLike<number>, g: number): void {
    const rate = this.learningRate;
    const g2 = g * g;
    b.biasSquares += g2;
    b.bias -= (rate * g) / Math.sqrt(b.biasSquares);
    for (let i = 0; i < b.real.length; i++) {
      const x = real[i] as number;
      if (x === 0) continue;
      b.realSquares[i] = (b.realSquares[i] as number) + g2 * x * x;
      b.real[i] = (b.real[i] as number) - (rate * g * x) / Math.sqrt(b.realSquares[i] as number);
    }
    if (this.groupWords !== 'all') return;
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k] as number;
      if (id >= b.words.length) {
        const length = Math.max(id + 1, b.words.length * 2);
        const w = new Float64Array(length);
        w.set(b.words);
        b.words = w;
        const s = new Float64Array(length);
        s.set(b.squares);
        b.squares = s;
      }
      const s = (b.squares[id] as number) + g2;
      b.squares[id] = s;
      b.words[id] = (b.words[id] as number) - (rate * g) / Math.sqrt(s);
    }
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

function copyGroup(b: GroupWeights): GroupWeights {
  return {
    words: b.words.slice(),
    squares: b.squares.slice(),
    bias: b.bias,
    biasSquares: b.biasSquares,
    real: b.real.slice(),
    realSquares: b.realSquares.slice(),
  };
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
  const g = state.group;
  if (g === undefined) return { state: { ...state, weights, squares }, ids };
  // A group update is also a shared one, so the group's trained words are among `ids`.
  const groupWords = new Float64Array(g.words.length === 0 ? 0 : ids.length);
  const groupSquares = new Float64Array(groupWords.length);
  if (groupWords.length > 0)
    ids.forEach((id, i) => {
      groupWords[i] = g.words[id] ?? 0;
      groupSquares[i] = g.squares[id] ?? 0;
    });
  const group = { ...copyGroup(g), words: groupWords, squares: groupSquares };
  return { state: { ...state, weights, squares, group }, ids };
}
