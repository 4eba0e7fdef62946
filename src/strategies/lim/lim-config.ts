/**
 * Every hyperparameter of Lim's crawler (Lim 2016, "Reinforcement Learning and the Web Crawling
 * Problem") in one typed config, with the section each value comes from. `lim-dfs` learns the
 * parse/skip policy by policy iteration on a model estimated from its transitions (section 4.3);
 * `lim-q` by tabular Q-learning (the thesis' future work, section 9.1). A run writes the resolved
 * config into the crawl store (meta `strategyConfig`).
 */
import { ConfigError } from '../../common/errors.js';

/** How the parse/skip decision is learned. */
export type LimLearner = 'policy-iteration' | 'q-learning';

export interface LimConfig {
  learner: LimLearner;
  /**
   * False: a fixed "always parse" policy (the untrained crawler: the plain modified DFS with its
   * host cap). `name:learn=0` on the command line. @default true
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
   * parsing irrelevant content", read as the content decided on (`decisionReward=1`).
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
   * infinite state spaces"). `lim-q:realState=1` on the command line. @default false
   */
  shouldUseRealState: boolean;
  /**
   * A diagnostic (issue 9), not the thesis: a number t parses exactly the pages whose own
   * relevance (section 5.2.2) is at least t, and nothing learns; it measures what the parse/skip
   * decision is worth when it follows the page's relevance, which the thesis' state does not hold.
   * False leaves the decision to the policy. `lim-dfs:parseAbove=0.1` on the command line
   * (`parseAbove=-1`: false). @default false
   */
  parseAbove: number | false;
  /** Decisions between two policy-iteration solves of the estimated model (lim-dfs only). @default 50 */
  planEvery: number;
  /** Dirichlet pseudo-count per next state in the estimated transition model (lim-dfs only). @default 0.1 */
  priorCount: number;
}

/** Settings a spec may override (`lim-q:gamma=0.5`); `learn` maps to `shouldLearn`, `pageReward`/`decisionReward` to `reward`, `realState` 0/1 to `shouldUseRealState`, `parseAbove=-1` to false. */
export const LIM_OVERRIDE_KEYS = [
  'learn',
  'maxConsecutivePerHost',
  'similarityThreshold',
  'relevanceThreshold',
  'parseSkipRatio',
  'maxUrlLength',
  'gamma',
  'pageReward',
  'decisionReward',
  'epsilon',
  'learningRate',
  'realState',
  'parseAbove',
  'planEvery',
  'priorCount',
] as const;

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

function check(ok: boolean, field: string, value: number, range: string): void {
  if (!ok) throw new ConfigError(`lim: ${field} must be ${range}, got ${value}`, { context: { field } });
}

/**
 * Fills in the defaults for `learner` and applies spec overrides (`learn=0`, `pageReward=1`, ...).
 * @throws ConfigError naming a value out of range.
 */
export function resolveLimConfig(
  learner: LimLearner,
  overrides: Readonly<Record<string, number>> = {},
): LimConfig {
  const { learn, pageReward, decisionReward, realState, parseAbove, ...rest } = overrides;
  const c: LimConfig = {
    ...DEFAULT_LIM_CONFIG,
    learner,
    reward: learner === 'q-learning' ? 'page' : 'state',
    ...(rest as Partial<LimConfig>),
  };
  if (learn !== undefined) {
    check(learn === 0 || learn === 1, 'learn', learn, '0 or 1');
    c.shouldLearn = learn === 1;
  }
  if (pageReward !== undefined) {
    check(pageReward === 0 || pageReward === 1, 'pageReward', pageReward, '0 or 1');
    c.reward = pageReward === 1 ? 'page' : 'state';
  }
  if (decisionReward !== undefined) {
    check(decisionReward === 0 || decisionReward === 1, 'decisionReward', decisionReward, '0 or 1');
    check(
      decisionReward === 0 || pageReward !== 1,
      'decisionReward',
      decisionReward,
      '0 when pageReward=1 (one reward at a time)',
    );
    if (decisionReward === 1) c.reward = 'decision';
  }
  if (realState !== undefined) {
    check(realState === 0 || realState === 1, 'realState', realState, '0 or 1');
    check(
      realState === 0 || learner === 'q-learning',
      'realState',
      realState,
      '0 for lim-dfs (policy iteration needs the 16 states)',
    );
    c.shouldUseRealState = realState === 1;
  }
  if (parseAbove !== undefined) {
    check(
      parseAbove === -1 || (parseAbove >= 0 && parseAbove <= 1),
      'parseAbove',
      parseAbove,
      '-1 (off) or in [0, 1]',
    );
    c.parseAbove = parseAbove === -1 ? false : parseAbove;
  }
  const m = c.maxConsecutivePerHost;
  check(Number.isInteger(m) && m >= 1, 'maxConsecutivePerHost', m, 'an integer >= 1');
  for (const f of ['similarityThreshold', 'relevanceThreshold', 'epsilon'] as const) {
    check(c[f] >= 0 && c[f] <= 1, f, c[f], 'in [0, 1]');
  }
  check(c.parseSkipRatio >= 1, 'parseSkipRatio', c.parseSkipRatio, '>= 1 (section 5.2.1)');
  check(c.maxUrlLength >= 1, 'maxUrlLength', c.maxUrlLength, '>= 1');
  check(c.gamma >= 0 && c.gamma < 1, 'gamma', c.gamma, 'in [0, 1) (section 4.2)');
  check(c.learningRate > 0 && c.learningRate <= 1, 'learningRate', c.learningRate, 'in (0, 1]');
  check(Number.isInteger(c.planEvery) && c.planEvery >= 1, 'planEvery', c.planEvery, 'an integer >= 1');
  check(c.priorCount > 0, 'priorCount', c.priorCount, '> 0');
  return c;
}
