/**
 * Every hyperparameter of Lim's crawler (Lim 2016, "Reinforcement Learning and the Web Crawling
 * Problem") in one typed config, with the section each value comes from. `lim-dfs` learns the
 * parse/skip policy by policy iteration on a model estimated from its transitions (section 4.3);
 * `lim-q` by tabular Q-learning (the thesis' future work, section 9.1). A run writes the resolved
 * config into the crawl store (meta `strategyConfig`).
 */
import { ConfigError } from '../../common/index.js';
import {
  booleanSetting,
  checkSettings,
  numberOrOffSetting,
  numberSetting,
  wordSetting,
} from '../../config/index.js';

/** How the parse/skip decision is learned. */
export type LimLearner = 'policy-iteration' | 'q-learning';

export interface LimConfig {
  learner: LimLearner;
  /**
   * False: a fixed "always parse" policy (the untrained crawler: the plain modified DFS with its
   * host cap). `lim-dfs:shouldLearn=false` on the command line. @default true
   */
  shouldLearn: boolean;
  /**
   * Pages of one host in a row whose links are pushed; from the next one on, the page's links are
   * not pushed until another host comes (section 5.1 step 7, section 6.2.2 `depthMax = 3`).
   * @default 3
   */
  maxConsecutivePerHost: number;
  /** z: a keyword's similarity to a search word below this counts as 0 (section 5.2.2). @default 2/3 */
  similarityThreshold: number;
  /** x of state features 2-4: a mean relevance at or above it is "relevant" (section 5.2.1). @default 2/3 */
  relevanceThreshold: number;
  /** x of state feature 1: parsed / skipped below it reads "mostly skipped" (section 5.2.1). @default 1 */
  parseSkipRatio: number;
  /** A URL longer than this is "way too long", predicted irrelevant (section 5.2.4). @default 200 */
  maxUrlLength: number;
  /** Discount factor gamma (section 4.2: in [0, 1)). @default 0.9 */
  gamma: number;
  /**
   * Reward of a decision. 'state': R(s) = number of true state features / 4, the thesis' reward
   * (section 5.2.3, scaled into section 4.2's [0, 1]); it is why policy iteration learned "never
   * parse". 'page': the crawl's reward (1 relevant, 0 not) of the next page fetched after the
   * decision. 'decision': 1 for parsing a page the crawl's judge calls relevant or skipping one
   * it does not, else 0: section 1.4 item 4's "reward for parsing relevant content and not
   * parsing irrelevant content", read as the content decided on (`reward=decision`).
   * @default 'state' for lim-dfs, 'page' for lim-q
   */
  reward: 'state' | 'page' | 'decision';
  /**
   * Share of decisions taken at random (seeded), so that both actions are tried in every state;
   * 0 turns it off. Our choice: the thesis has no exploration (its model came from analysis).
   * @default 0.1
   */
  epsilon: number;
  /** Q-learning step size alpha (lim-q only). @default 0.1 */
  learningRate: number;
  /**
   * lim-q only. False: the four booleans of section 5.2.1 and a Q table (16 states x 2). True:
   * the quantities behind them as real numbers and a linear Q (section 9.1: Q-learning "allows
   * infinite state spaces"). `lim-q:shouldUseRealState=true` on the command line. @default false
   */
  shouldUseRealState: boolean;
  /**
   * A diagnostic, not the thesis: a number t parses exactly the pages whose own
   * relevance (section 5.2.2) is at least t, and nothing learns; it measures what the parse/skip
   * decision is worth when it follows the page's relevance, which the thesis' state does not hold.
   * False leaves the decision to the policy. `lim-dfs:parseAbove=0.1` on the command line.
   * @default false
   */
  parseAbove: number | false;
  /** Decisions between two policy-iteration solves of the estimated model (lim-dfs only). @default 50 */
  planEvery: number;
  /** Dirichlet pseudo-count per next state in the estimated transition model (lim-dfs only). @default 0.1 */
  priorCount: number;
}

/** The defaults of both learners; `learner` and `reward` are set per strategy. */
export const DEFAULT_LIM_CONFIG: Omit<LimConfig, 'learner' | 'reward'> = {
  shouldLearn: true,
  maxConsecutivePerHost: 3,
  similarityThreshold: 2 / 3,
  relevanceThreshold: 2 / 3,
  parseSkipRatio: 1,
  maxUrlLength: 200,
  gamma: 0.9,
  epsilon: 0.1,
  learningRate: 0.1,
  shouldUseRealState: false,
  parseAbove: false,
  planEvery: 50,
  priorCount: 0.1,
};

const D = DEFAULT_LIM_CONFIG;

function limSettings(reward: LimConfig['reward']) {
  return {
    shouldLearn: booleanSetting(D.shouldLearn, 'false: always parse (the untrained modified DFS)'),
    maxConsecutivePerHost: numberSetting(D.maxConsecutivePerHost, 'pages of one host in a row', {
      min: 1,
      isInteger: true,
    }),
    similarityThreshold: numberSetting(D.similarityThreshold, 'z: similarity below it counts 0', {
      min: 0,
      max: 1,
    }),
    relevanceThreshold: numberSetting(D.relevanceThreshold, 'x of state features 2-4', { min: 0, max: 1 }),
    parseSkipRatio: numberSetting(D.parseSkipRatio, 'x of state feature 1 (section 5.2.1)', { min: 1 }),
    maxUrlLength: numberSetting(D.maxUrlLength, 'a longer URL is predicted irrelevant', { min: 1 }),
    gamma: numberSetting(D.gamma, 'discount (section 4.2)', { min: 0, max: 1, isMaxOpen: true }),
    reward: wordSetting(['state', 'page', 'decision'], reward, 'reward of a decision'),
    epsilon: numberSetting(D.epsilon, 'share of random decisions', { min: 0, max: 1 }),
    learningRate: numberSetting(D.learningRate, 'Q-learning step size (lim-q)', {
      min: 0,
      max: 1,
      isMinOpen: true,
    }),
    shouldUseRealState: booleanSetting(D.shouldUseRealState, 'real-valued state and linear Q (lim-q only)'),
    parseAbove: numberOrOffSetting(D.parseAbove, 'diagnostic: parse exactly the pages this relevant', {
      min: 0,
      max: 1,
    }),
    planEvery: numberSetting(D.planEvery, 'decisions between policy-iteration solves (lim-dfs)', {
      min: 1,
      isInteger: true,
    }),
    priorCount: numberSetting(D.priorCount, 'Dirichlet pseudo-count of the model (lim-dfs)', {
      min: 0,
      isMinOpen: true,
    }),
  };
}

/** The settings of a `lim-dfs:key=value` spec, by field name. */
export const LIM_DFS_SETTINGS = limSettings('state');
/** The settings of a `lim-q:key=value` spec, by field name. */
export const LIM_Q_SETTINGS = limSettings('page');

/** Old spec keys the commands in results/ use. */
export const LIM_ALIASES = {
  learn: { to: 'shouldLearn', values: { 0: false, 1: true } },
  realState: { to: 'shouldUseRealState', values: { 0: false, 1: true } },
  decisionReward: { to: 'reward', values: { 1: 'decision' } },
  pageReward: { to: 'reward', values: { 1: 'page' } },
};

/** What a caller or a spec may set. */
export type LimSettings = Partial<Omit<LimConfig, 'learner'>>;

/**
 * Fills in the defaults for `learner` and applies `settings`, checked once.
 * @throws ConfigError naming a value out of range.
 */
export function resolveLimConfig(learner: LimLearner, settings: LimSettings = {}): LimConfig {
  const where = learner === 'q-learning' ? 'lim-q' : 'lim-dfs';
  const c: LimConfig = {
    ...checkSettings(learner === 'q-learning' ? LIM_Q_SETTINGS : LIM_DFS_SETTINGS, settings, where),
    learner,
  };
  if (c.shouldUseRealState && learner !== 'q-learning') {
    throw new ConfigError(
      `${where}: shouldUseRealState must be false for lim-dfs (policy iteration needs the 16 states)`,
      { context: { field: 'shouldUseRealState' } },
    );
  }
  return c;
}
