/**
 * Every hyperparameter of TRES's Double DQN in one typed config (as CleanRL's `Args`), with the
 * authors' code values as defaults (../shared/reference/tres-reference-code.md, section DDQN).
 */
import { ConfigError } from '../../common/index.js';

/** Hyperparameters of {@link DdqnAgent}. Steps are crawl steps (one fetched page each). */
export interface DdqnConfig {
  /** Length of a state-action vector. @default 9 (TRES; TRES_NH without domain features: 7) */
  featureCount: number;
  /** Hidden layer widths of the Q-network. @default [30, 15] */
  hiddenSizes: readonly number[];
  /** LeakyReLU slope of the hidden layers. @default 0.1 */
  leakySlope: number;
  /**
   * Discount factor, in [0, 1). @default 0.99, the authors' code. The journal text (section 2.7.3)
   * argues for a low gamma (a myopic agent mostly after the immediate reward and the next one or
   * two) but the value it names was lost from our copy of the text, so the default stays the
   * code's; measure lower values (e.g. 0.1, 0.5) in the benchmark.
   */
  gamma: number;
  /** Adam step size. @default 1e-3 */
  learningRate: number;
  /** Adam beta1. @default 0.9 */
  adamBeta1: number;
  /** Adam beta2. @default 0.999 */
  adamBeta2: number;
  /** Adam epsilon, Keras placement. @default 1e-7 */
  adamEpsilon: number;
  /** Gradient value clipping (Keras `clipvalue`); `false` turns it off. @default 1 */
  clipValue: number | false;
  /** Transitions per training step. @default 60 (the TRES code uses 128 when b = 5) */
  batchSize: number;
  /** Train on every trainEvery-th step after warm-up. @default 3 (1 when b = 5) */
  trainEvery: number;
  /**
   * Steps of random leaf choice before training starts (reference: 300-500); training begins at
   * step `warmupSteps`. 0 turns the warm-up off. @default 300
   */
  warmupSteps: number;
  /** Copy the online net into the target net on every step that is a multiple of this. @default 500 */
  targetUpdateEvery: number;
  /** Replay capacity in transitions. @default 20_000 */
  replayCapacity: number;
  /** Cap on stored candidate next actions per transition; `false` keeps all. @default false */
  maxNextCandidates: number | false;
  /**
   * `true`: Double DQN (the online net picks the next action, the target net scores it).
   * `false`: DQN (the target net does both), for ablations. @default true
   */
  isDoubleQ: boolean;
  /**
   * `false`: the network never trains and keeps its initial weights (transitions are still
   * stored): the "learning off" version a learning strategy is compared with. @default true
   */
  isLearning: boolean;
}

/** The reference values (TRES authors' code; Keras' Adam). */
export const DEFAULT_DDQN_CONFIG: Readonly<DdqnConfig> = Object.freeze({
  featureCount: 9,
  hiddenSizes: Object.freeze([30, 15]),
  leakySlope: 0.1,
  gamma: 0.99,
  learningRate: 1e-3,
  adamBeta1: 0.9,
  adamBeta2: 0.999,
  adamEpsilon: 1e-7,
  clipValue: 1,
  batchSize: 60,
  trainEvery: 3,
  warmupSteps: 300,
  targetUpdateEvery: 500,
  replayCapacity: 20_000,
  maxNextCandidates: false,
  isDoubleQ: true,
  isLearning: true,
});

function fail(field: keyof DdqnConfig, rule: string, value: unknown): never {
  const shown = Array.isArray(value) ? `[${value.join(', ')}]` : String(value);
  throw new ConfigError(`ddqn config: ${field} must be ${rule}, got ${shown}`, { context: { field } });
}

/**
 * The defaults overlaid with `overrides`, checked once. Throws ConfigError naming the field
 * (`context.field`) of the first value out of range.
 */
export function resolveDdqnConfig(overrides: Partial<DdqnConfig> = {}): Readonly<DdqnConfig> {
  const c: DdqnConfig = { ...DEFAULT_DDQN_CONFIG, ...overrides };
  const isInt = (v: number, min: number) => Number.isInteger(v) && v >= min;
  for (const field of [
    'featureCount',
    'batchSize',
    'trainEvery',
    'targetUpdateEvery',
    'replayCapacity',
  ] as const)
    if (!isInt(c[field], 1)) fail(field, 'an integer >= 1', c[field]);
  if (!isInt(c.warmupSteps, 0)) fail('warmupSteps', 'an integer >= 0', c.warmupSteps);
  if (c.hiddenSizes.length === 0 || !c.hiddenSizes.every((h) => isInt(h, 1)))
    fail('hiddenSizes', 'a non-empty list of integers >= 1', c.hiddenSizes);
  if (!(c.leakySlope >= 0 && c.leakySlope < 1)) fail('leakySlope', 'in [0, 1)', c.leakySlope);
  if (!(c.gamma >= 0 && c.gamma < 1)) fail('gamma', 'in [0, 1)', c.gamma);
  if (!(c.learningRate > 0 && Number.isFinite(c.learningRate)))
    fail('learningRate', 'a finite number > 0', c.learningRate);
  if (!(c.adamBeta1 >= 0 && c.adamBeta1 < 1)) fail('adamBeta1', 'in [0, 1)', c.adamBeta1);
  if (!(c.adamBeta2 >= 0 && c.adamBeta2 < 1)) fail('adamBeta2', 'in [0, 1)', c.adamBeta2);
  if (!(c.adamEpsilon > 0 && Number.isFinite(c.adamEpsilon)))
    fail('adamEpsilon', 'a finite number > 0', c.adamEpsilon);
  if (c.clipValue !== false && !(c.clipValue > 0 && Number.isFinite(c.clipValue)))
    fail('clipValue', 'a finite number > 0 or false', c.clipValue);
  if (c.maxNextCandidates !== false && !isInt(c.maxNextCandidates, 1))
    fail('maxNextCandidates', 'an integer >= 1 or false', c.maxNextCandidates);
  if (typeof c.isDoubleQ !== 'boolean') fail('isDoubleQ', 'a boolean', c.isDoubleQ);
  if (typeof c.isLearning !== 'boolean') fail('isLearning', 'a boolean', c.isLearning);
  return Object.freeze({ ...c, hiddenSizes: Object.freeze([...c.hiddenSizes]) });
}
