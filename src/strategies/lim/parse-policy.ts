/**
 * The learners of Lim's parse/skip decision, actions skip (0) and parse (1); the first two over
 * the 16 states of `host-states.ts`, the third over its real-valued features:
 * - {@link PolicyIterationPolicy} (`lim-dfs`, thesis section 4.3): policy iteration on a model.
 *   The thesis "derived" the transition probabilities "via analysis" without saying how; we
 *   estimate them from the transitions seen so far (counts plus a small Dirichlet prior, so an
 *   untried action reads as "any next state") and re-solve every `planEvery` decisions.
 *   First policy: a random action per state (section 4.3 step 1, seeded).
 * - {@link QLearningPolicy} (`lim-q`, the thesis' future work, section 9.1): model-free tabular
 *   Q-learning, Q(s,a) += alpha (r + gamma max_a' Q(s',a') - Q(s,a)), Q starting at 0.
 * - {@link LinearQParsePolicy} (`lim-q:realState=1`): Q-learning with a linear Q.
 * Ties between the two actions go to parse, so an untrained Q-learner parses everything.
 */

import type { Rng } from '../../common/index.js';
import { ConfigError } from '../../common/index.js';
import { STATE_COUNT } from './host-states.js';

const ACTIONS = 2;
const PARSE = 1;
/** What each learner has learned (see `learnedState`). */
const Q_FIELDS = ['q', 'updates'] as const;
const PI_FIELDS = ['counts', 'rewardSum', 'visits', 'policy', 'value', 'transitions', 'solves'] as const;
const LINEAR_FIELDS = ['weights', 'updates', 'parses', 'decisions'] as const;

/**
 * Copies of `owner`'s named fields (numbers and typed arrays), for checkpoints: what each
 * learner below has learned is a few such fields.
 */
function fieldsOf(owner: object, fields: readonly string[]): Record<string, unknown> {
  const o = owner as Record<string, unknown>;
  return Object.fromEntries(
    fields.map((f) => [f, ArrayBuffer.isView(o[f]) ? (o[f] as Float64Array).slice() : o[f]]),
  );
}

/** Loads fields {@link fieldsOf} copied. @throws ConfigError if one is missing or of another size. */
function loadFields(owner: object, fields: readonly string[], state: Record<string, unknown>): void {
  const o = owner as Record<string, unknown>;
  for (const f of fields) {
    const value = state[f];
    const mine = o[f];
    if (ArrayBuffer.isView(mine)) {
      if (!ArrayBuffer.isView(value) || (value as Float64Array).length !== (mine as Float64Array).length)
        throw new ConfigError(`Lim checkpoint: ${f} does not fit`, { context: { field: f } });
      (mine as Float64Array).set(value as Float64Array);
    } else {
      if (typeof value !== 'number')
        throw new ConfigError(`Lim checkpoint: ${f} is missing`, { context: { field: f } });
      o[f] = value;
    }
  }
}

/** A parse/skip policy that learns from transitions (s, a, r, s'). */
export interface ParsePolicy {
  /** What the policy has learned, for checkpoints. */
  learnedState(): Record<string, unknown>;
  /** Loads a {@link ParsePolicy.learnedState}. @throws ConfigError if it does not fit. */
  loadLearnedState(state: Record<string, unknown>): void;
  /** The policy's action in `state`: true = parse. */
  isParse(state: number): boolean;
  /** One transition: decision `isParse` in `state`, reward, state of the next decision. */
  learn(state: number, isParse: boolean, reward: number, nextState: number): void;
  /** Numbers for stats: states whose greedy action is parse, solves, updates. */
  stats(): Record<string, number>;
}

/** Tabular Q-learning. */
export class QLearningPolicy implements ParsePolicy {
  /** [state, action] */
  readonly q = new Float64Array(STATE_COUNT * ACTIONS);
  private updates = 0;

  constructor(private readonly options: { gamma: number; learningRate: number }) {}

  isParse(state: number): boolean {
    return (this.q[state * ACTIONS + PARSE] as number) >= (this.q[state * ACTIONS] as number);
  }

  learnedState(): Record<string, unknown> {
    return fieldsOf(this, Q_FIELDS);
  }

  loadLearnedState(state: Record<string, unknown>): void {
    loadFields(this, Q_FIELDS, state);
  }

  learn(state: number, isParse: boolean, reward: number, nextState: number): void {
    const i = state * ACTIONS + (isParse ? PARSE : 0);
    const next = Math.max(
      this.q[nextState * ACTIONS] as number,
      this.q[nextState * ACTIONS + PARSE] as number,
    );
    const target = reward + this.options.gamma * next;
    this.q[i] = (this.q[i] as number) + this.options.learningRate * (target - (this.q[i] as number));
    this.updates++;
  }

  stats(): Record<string, number> {
    return { 'lim/parse_states': countParse(this), 'rl/updates': this.updates };
  }
}

export interface PolicyIterationOptions {
  gamma: number;
  /** Transitions between two solves. */
  planEvery: number;
  /** Pseudo-count per next state of every (state, action). */
  priorCount: number;
  /** R(s) when the reward is a function of the state (the thesis' reward); else the mean observed reward. */
  stateReward?: (state: number) => number;
  /** Draws the first, random policy. */
  rng: Rng;
}

/** Policy iteration on the transition model estimated from experience. */
export class PolicyIterationPolicy implements ParsePolicy {
  /** [state, action, next state] transition counts. */
  private readonly counts = new Float64Array(STATE_COUNT * ACTIONS * STATE_COUNT);
  /** [state, action] */
  private readonly rewardSum = new Float64Array(STATE_COUNT * ACTIONS);
  private readonly visits = new Float64Array(STATE_COUNT * ACTIONS);
  /** [state]: 1 parse, 0 skip. */
  readonly policy = new Uint8Array(STATE_COUNT);
  /** [state]: V of the current policy after the last solve. */
  readonly value = new Float64Array(STATE_COUNT);
  private transitions = 0;
  private solves = 0;

  constructor(private readonly options: PolicyIterationOptions) {
    for (let s = 0; s < STATE_COUNT; s++) this.policy[s] = options.rng.next() < 0.5 ? 1 : 0;
  }

  isParse(state: number): boolean {
    return this.policy[state] === 1;
  }

  learnedState(): Record<string, unknown> {
    return fieldsOf(this, PI_FIELDS);
  }

  loadLearnedState(state: Record<string, unknown>): void {
    loadFields(this, PI_FIELDS, state);
  }

  learn(state: number, isParse: boolean, reward: number, nextState: number): void {
    const sa = state * ACTIONS + (isParse ? PARSE : 0);
    this.counts[sa * STATE_COUNT + nextState] = (this.counts[sa * STATE_COUNT + nextState] as number) + 1;
    this.rewardSum[sa] = (this.rewardSum[sa] as number) + reward;
    this.visits[sa] = (this.visits[sa] as number) + 1;
    if (++this.transitions % this.options.planEvery === 0) this.solve();
  }

  /**
   * Policy iteration (section 4.3): evaluate V of the policy on the estimated model, make the
   * policy greedy in it, until the policy stays the same. An action changes only if strictly
   * better, so ties keep the current policy (and the loop ends).
   */
  solve(): void {
    this.solves++;
    for (let iteration = 0; iteration < 100; iteration++) {
      this.evaluate();
      let isChanged = false;
      for (let s = 0; s < STATE_COUNT; s++) {
        const current = this.policy[s] as number;
        const other = 1 - current;
        if (this.actionValue(s, other) > this.actionValue(s, current) + 1e-12) {
          this.policy[s] = other;
          isChanged = true;
        }
      }
      if (!isChanged) return;
    }
  }

  stats(): Record<string, number> {
    return { 'lim/parse_states': countParse(this), 'lim/solves': this.solves };
  }

  /** r(s,a) + gamma * sum_x P(x | s,a) V(x) on the estimated model. */
  private actionValue(s: number, a: number): number {
    const sa = s * ACTIONS + a;
    const visits = this.visits[sa] as number;
    const reward =
      this.options.stateReward?.(s) ?? (visits > 0 ? (this.rewardSum[sa] as number) / visits : 0);
    const prior = this.options.priorCount;
    const total = visits + prior * STATE_COUNT;
    let expected = 0;
    for (let x = 0; x < STATE_COUNT; x++) {
      expected +=
        (((this.counts[sa * STATE_COUNT + x] as number) + prior) / total) * (this.value[x] as number);
    }
    return reward + this.options.gamma * expected;
  }

  /** Iterative policy evaluation until V moves less than 1e-10. */
  private evaluate(): void {
    for (let sweep = 0; sweep < 10_000; sweep++) {
      let delta = 0;
      for (let s = 0; s < STATE_COUNT; s++) {
        const v = this.actionValue(s, this.policy[s] as number);
        delta = Math.max(delta, Math.abs(v - (this.value[s] as number)));
        this.value[s] = v;
      }
      if (delta < 1e-10) return;
    }
  }
}

function countParse(policy: ParsePolicy): number {
  let n = 0;
  for (let s = 0; s < STATE_COUNT; s++) if (policy.isParse(s)) n++;
  return n;
}

/** Settings of {@link LinearQParsePolicy}. */
export interface LinearQParseOptions {
  /** Length n of a state's feature vector. */
  features: number;
  /** Discount. */
  gamma: number;
  /** Step size alpha, divided by n. */
  learningRate: number;
}

/**
 * Q-learning over real-valued state features (`lim-q:realState=1`): the thesis' future work
 * (section 9.1) proposes Q-learning because it "allows infinite state spaces", so the quantities
 * of section 5.2.1 need not be cut into four booleans ({@link HostStates.features}). Q(x, a) =
 * w_a . x with one weight vector per action; semi-gradient Q-learning with n features,
 * w_a += alpha / n * (r + gamma max_b w_b . x' - w_a . x) x. Ties go to parse, as in the table.
 */
export class LinearQParsePolicy {
  /** [action, feature] */
  readonly weights: Float64Array;
  private updates = 0;
  private parses = 0;
  private decisions = 0;

  constructor(private readonly options: LinearQParseOptions) {
    this.weights = new Float64Array(ACTIONS * options.features);
  }

  /** What the policy has learned, for checkpoints. */
  learnedState(): Record<string, unknown> {
    return fieldsOf(this, LINEAR_FIELDS);
  }

  /** Loads a {@link LinearQParsePolicy.learnedState}. @throws ConfigError if it does not fit. */
  loadLearnedState(state: Record<string, unknown>): void {
    loadFields(this, LINEAR_FIELDS, state);
  }

  /** Q(x, action), action 1 = parse. */
  q(x: Float64Array, action: number): number {
    const f = this.options.features;
    let sum = 0;
    for (let j = 0; j < f; j++) sum += (this.weights[action * f + j] as number) * (x[j] as number);
    return sum;
  }

  /** The greedy action in `x` (true = parse); counted for `lim/greedy_parse_share`. */
  isParse(x: Float64Array): boolean {
    const isParse = this.q(x, PARSE) >= this.q(x, 0);
    this.decisions++;
    if (isParse) this.parses++;
    return isParse;
  }

  /** One transition: decision `isParse` in `x`, its reward, the next decision's features. */
  learn(x: Float64Array, isParse: boolean, reward: number, next: Float64Array): void {
    const a = isParse ? PARSE : 0;
    const f = this.options.features;
    const target = reward + this.options.gamma * Math.max(this.q(next, 0), this.q(next, PARSE));
    const step = (this.options.learningRate / f) * (target - this.q(x, a));
    for (let j = 0; j < f; j++) {
      this.weights[a * f + j] = (this.weights[a * f + j] as number) + step * (x[j] as number);
    }
    this.updates++;
  }

  /** Share of greedy decisions that parsed, and updates. */
  stats(): Record<string, number> {
    return {
      'lim/greedy_parse_share': this.decisions === 0 ? 0 : this.parses / this.decisions,
      'rl/updates': this.updates,
    };
  }
}
