/**
 * Strategies by name, for the command line, the library and the benchmarks. A spec is a name or
 * a name with overrides of the settings that strategy declares (`tres:gamma=0.5,maxDepth=10`).
 */
import { ConfigError } from '../common/errors.js';
import type { Rng } from '../common/rng.js';
import type { DdqnConfig } from '../rl/ddqn-config.js';
import { KeywordSet } from '../text/index.js';
import { ACHE_KEYS } from './ache/ache-config.js';
import { AcheStrategy } from './ache/ache-strategy.js';
import { APPRENTICE_KEYS } from './apprentice/apprentice-config.js';
import { ApprenticeStrategy } from './apprentice/apprentice-strategy.js';
import { HAN_ASYNC_KEYS, HanAsyncStrategy } from './han-async/han-async-strategy.js';
import { LIM_OVERRIDE_KEYS } from './lim/lim-config.js';
import type { WordVectorLookup } from './lim/lim-relevance.js';
import { LimStrategy } from './lim/lim-strategy.js';
import { QueueStrategy } from './queue-strategy.js';
import { RLWCS_KEYS, SVM_LINKS_KEYS } from './rlwcs/rlwcs-config.js';
import { RlwcsStrategy } from './rlwcs/rlwcs-strategy.js';
import { COVERAGE_KEYS } from './site-coverage/coverage-config.js';
import { CoverageStrategy } from './site-coverage/coverage-strategy.js';
import type { Strategy } from './strategy.js';
import { TresAsyncStrategy } from './tres/tres-async-strategy.js';
import type { TresOverrides } from './tres/tres-config.js';
import { TresStrategy, type TresTreeVariant } from './tres/tres-strategy.js';

/** What every strategy factory receives. */
export interface StrategyContext {
  /** The run's random stream, already forked for the strategy. */
  rng: Rng;
  /** The topic's (expanded) keywords and keyphrases, for strategies with keyword features. */
  keywords?: KeywordSet;
  /** Overrides of the Double DQN hyperparameters, for the RL strategies. */
  ddqn?: Partial<DdqnConfig>;
  /** Name to report (the full spec, e.g. `tres:gamma=0.5`); defaults to the strategy's own. */
  name?: string;
  /**
   * Word vectors (the `loadWordVectors()` table) for strategies whose entry says
   * `needsWordVectors` (see {@link strategyNeedsWordVectors}); without them such a strategy
   * falls back to keyword matching.
   */
  wordVectors?: WordVectorLookup;
}

/** A factory gets the context and the spec's overrides (`name:key=value,...`), checked against its keys. */
type StrategyFactory = (ctx: StrategyContext, overrides: Readonly<Record<string, number>>) => Strategy;

/** One strategy of the registry. */
interface StrategyEntry {
  describe: string;
  create: StrategyFactory;
  /** Keys a spec may override, e.g. `tres:gamma=0.5`; none when absent. */
  overrideKeys?: readonly string[];
  /** True if the strategy uses `StrategyContext.wordVectors` (the loop loads them only then). */
  needsWordVectors?: boolean;
}

/** Double DQN settings a strategy spec may override: `tres:gamma=0.5,batchSize=128`. */
const DDQN_KEYS = [
  'gamma',
  'learningRate',
  'batchSize',
  'trainEvery',
  'warmupSteps',
  'targetUpdateEvery',
  'replayCapacity',
] as const;

/** Tree-Frontier settings a TRES spec may override: `tres:maxDepth=10`. */
const TREE_KEYS = [
  'maxDepth',
  'minSamplesToSplit',
  'minSideFraction',
  'minSamplesPerSide',
  'maxDrawRounds',
] as const;

/**
 * TRES settings of its own a spec may override: `tres:warmupPrior=0` (the authors' random
 * warm-up), `tres:epsilon=0.1` (a random candidate with this probability after the warm-up),
 * `tres:parentProbability=1` (feature 0 is the parent page's P(relevant), not its 0/1 reward),
 * `tres:limitSiteBonus=3` (a new-site bonus only while a domain limit is set),
 * `tres:newDomainBonus=0.5` (intrinsic reward for a new relevant site), and three
 * flags of its agent: `learn=0` (the Q-network keeps its initial weights; the tree still
 * splits on the rewards it sees), `doubleQ=0` (DQN: the target network also picks the next
 * action), `maxNextCandidates=N` (at most N stored next actions per transition).
 */
/** The agent's keys, for tres-async too (which has no tree and no warm-up policy). */
const TRES_AGENT_KEYS = ['newDomainBonus', 'learn', 'doubleQ', 'maxNextCandidates'] as const;
const TRES_OWN_KEYS = [
  'warmupPrior',
  'epsilon',
  'parentProbability',
  'limitSiteBonus',
  ...TRES_AGENT_KEYS,
] as const;

/** A 0/1 spec value as a boolean. @throws ConfigError naming the key. */
function flag(key: string, value: number): boolean {
  if (value !== 0 && value !== 1)
    throw new ConfigError(`strategy setting "${key}" must be 0 or 1, got ${value}`, {
      context: { field: key },
    });
  return value === 1;
}

/** Splits overrides into the DDQN part, the tree part and TRES's own. */
function tresOverrides(ctx: StrategyContext, overrides: Readonly<Record<string, number>>): TresOverrides {
  const ddqn: Record<string, unknown> = { ...ctx.ddqn };
  const tree: Record<string, number> = {};
  let warmupPolicy: TresOverrides['warmupPolicy'];
  let newDomainBonus: number | undefined;
  let epsilon: number | undefined;
  let parentFeature: TresOverrides['parentFeature'];
  let limitSiteBonus: number | undefined;
  for (const [key, value] of Object.entries(overrides)) {
    if ((TREE_KEYS as readonly string[]).includes(key)) tree[key] = value;
    else if (key === 'warmupPrior') warmupPolicy = value === 0 ? 'random' : 'prior';
    else if (key === 'newDomainBonus') newDomainBonus = value;
    else if (key === 'epsilon') epsilon = value;
    else if (key === 'limitSiteBonus') limitSiteBonus = value;
    else if (key === 'parentProbability') parentFeature = flag(key, value) ? 'probability' : 'reward';
    else if (key === 'learn') ddqn.isLearning = flag(key, value);
    else if (key === 'doubleQ') ddqn.isDoubleQ = flag(key, value);
    else ddqn[key] = value;
  }
  return {
    ddqn: ddqn as Partial<DdqnConfig>,
    tree: tree as TresOverrides['tree'],
    ...(warmupPolicy ? { warmupPolicy } : {}),
    ...(newDomainBonus === undefined ? {} : { newDomainBonus }),
    ...(epsilon === undefined ? {} : { epsilon }),
    ...(parentFeature ? { parentFeature } : {}),
    ...(limitSiteBonus === undefined ? {} : { limitSiteBonus }),
  };
}

function tres(variant: TresTreeVariant): StrategyFactory {
  return (ctx, overrides) =>
    new TresStrategy({
      variant,
      rng: ctx.rng,
      keywords: ctx.keywords ?? new KeywordSet([]),
      ...tresOverrides(ctx, overrides),
      ...(ctx.name ? { name: ctx.name } : {}),
    });
}

const TRES_KEYS = [...DDQN_KEYS, ...TREE_KEYS, ...TRES_OWN_KEYS];

function lim(learner: 'policy-iteration' | 'q-learning'): StrategyFactory {
  return (ctx, overrides) =>
    new LimStrategy({
      learner,
      rng: ctx.rng,
      keywords: ctx.keywords ?? new KeywordSet([]),
      overrides,
      ...(ctx.wordVectors ? { wordVectors: ctx.wordVectors } : {}),
      ...(ctx.name ? { name: ctx.name } : {}),
    });
}

const factories: Record<string, StrategyEntry> = {
  bfs: {
    describe: 'breadth-first: first discovered, first fetched',
    create: ({ rng }) => new QueueStrategy({ order: 'bfs', rng }),
  },
  random: {
    describe: 'a uniformly random frontier URL each step (the papers\u2019 Random baseline)',
    create: ({ rng }) => new QueueStrategy({ order: 'random', rng }),
  },
  'best-first': {
    describe: 'priority = relevance of the page the link was found on (Chakrabarti et al. baseline)',
    create: ({ rng }) => new QueueStrategy({ order: 'best-first', rng }),
  },
  tres: {
    describe: 'TRES: Double DQN choosing among one representative per Tree-Frontier leaf',
    create: tres('tres'),
    overrideKeys: TRES_KEYS,
  },
  'tres-nh': {
    describe: 'TRES without the two hub (domain) features',
    create: tres('tres-nh'),
    overrideKeys: TRES_KEYS,
  },
  'tree-random': {
    describe: 'the Tree-Frontier with a random leaf and a random sample (no Q-network)',
    create: tres('tree-random'),
    overrideKeys: TREE_KEYS,
  },
  synchronous: {
    describe: 'exact argmax of Q over the whole frontier every step (slow; for comparison)',
    create: tres('synchronous'),
    overrideKeys: [...DDQN_KEYS, ...TRES_OWN_KEYS],
  },
  'tres-async': {
    describe: 'TRES features and DDQN, frontier scored once on insertion (Han et al.), best-first',
    create: (ctx, overrides) =>
      new TresAsyncStrategy({
        rng: ctx.rng,
        keywords: ctx.keywords ?? new KeywordSet([]),
        ...tresOverrides(ctx, overrides),
        ...(ctx.name ? { name: ctx.name } : {}),
      }),
    overrideKeys: [...DDQN_KEYS, ...TRES_AGENT_KEYS],
  },
  'han-async': {
    describe:
      'Han et al. (Async): linear SARSA on bucketed path and cosine-relevance features, outlinks scored once, best-first',
    create: (ctx, overrides) =>
      new HanAsyncStrategy({
        rng: ctx.rng,
        keywords: ctx.keywords ?? new KeywordSet([]),
        overrides,
        ...(ctx.name ? { name: ctx.name } : {}),
      }),
    overrideKeys: HAN_ASYNC_KEYS,
  },
  ache: {
    describe:
      'ACHE-like: best-first, then a link classifier (SVM on URL/anchor/around words) retrained every 500 pages rescoring the frontier',
    create: (ctx, overrides) =>
      new AcheStrategy({ rng: ctx.rng, overrides, ...(ctx.name ? { name: ctx.name } : {}) }),
    overrideKeys: ACHE_KEYS,
  },
  'lim-dfs': {
    describe:
      'Lim (2016): modified DFS with a per-host cap; parse/skip (follow outlinks or not) by policy iteration on 4 boolean features',
    create: lim('policy-iteration'),
    overrideKeys: LIM_OVERRIDE_KEYS,
    needsWordVectors: true,
  },
  'lim-q': {
    describe: 'Lim\u2019s modified DFS with tabular Q-learning for parse/skip (the thesis\u2019 future work)',
    create: lim('q-learning'),
    overrideKeys: LIM_OVERRIDE_KEYS,
    needsWordVectors: true,
  },
  apprentice: {
    describe:
      'best-first critic plus a naive Bayes apprentice on <token, DOM offset> link features (Chakrabarti et al. 2002)',
    create: (ctx, overrides) =>
      new ApprenticeStrategy({ overrides, ...(ctx.name ? { name: ctx.name } : {}) }),
    overrideKeys: APPRENTICE_KEYS,
  },
  coverage: {
    describe:
      'relevant pages from many sites: P(relevant) from an online link model, hub and site yields; value = p * (1 + newSiteValue for a site with no relevant page yet)',
    create: (ctx, overrides) => new CoverageStrategy({ overrides, ...(ctx.name ? { name: ctx.name } : {}) }),
    overrideKeys: COVERAGE_KEYS,
  },
  rlwcs: {
    describe:
      'Q(lambda) picks per page which classifier (NN, SVM, NB, DT, vote) scores its outlinks (Partalas et al. 2008)',
    create: (ctx, overrides) =>
      new RlwcsStrategy({
        variant: 'rlwcs',
        rng: ctx.rng,
        overrides,
        ...(ctx.name ? { name: ctx.name } : {}),
      }),
    overrideKeys: RLWCS_KEYS,
  },
  'svm-links': {
    describe:
      'best-first on a linear SVM\u2019s score of each link\u2019s text (the RLwCS paper\u2019s baseline)',
    create: (ctx, overrides) =>
      new RlwcsStrategy({
        variant: 'svm-links',
        rng: ctx.rng,
        overrides,
        ...(ctx.name ? { name: ctx.name } : {}),
      }),
    overrideKeys: SVM_LINKS_KEYS,
  },
};

/**
 * True if the strategy of `spec` uses word vectors: the crawl loop should then load them
 * (`loadWordVectors()`) and pass them as `StrategyContext.wordVectors`. False for unknown names.
 */
export function strategyNeedsWordVectors(spec: string): boolean {
  return factories[parseStrategySpec(spec).name]?.needsWordVectors === true;
}

/** Names of the strategies that exist, with a one-line description each. */
export function strategyNames(): { name: string; describe: string; overrideKeys: readonly string[] }[] {
  return Object.entries(factories).map(([name, f]) => ({
    name,
    describe: f.describe,
    overrideKeys: f.overrideKeys ?? [],
  }));
}

/**
 * Parses a strategy spec `NAME` or `NAME:key=value,...` (numbers; e.g. `tres:gamma=0.5`).
 * Which keys a strategy takes is checked by {@link createStrategy}.
 * @throws ConfigError naming the bad part.
 */
export function parseStrategySpec(spec: string): { name: string; overrides: Record<string, number> } {
  const colon = spec.indexOf(':');
  const name = (colon < 0 ? spec : spec.slice(0, colon)).trim();
  const overrides: Record<string, number> = {};
  if (colon >= 0) {
    for (const part of spec.slice(colon + 1).split(',')) {
      const [key, value] = part.split('=').map((t) => t.trim());
      const number = Number(value);
      if (!key || value === undefined || value === '' || !Number.isFinite(number)) {
        throw new ConfigError(`strategy "${spec}": "${part}" is not KEY=NUMBER`, {
          context: { field: 'strategy' },
        });
      }
      overrides[key] = number;
    }
  }
  return { name, overrides };
}

/**
 * Makes a strategy from a spec: a name (`tres`) or a name with overrides of its settings
 * (`tres:gamma=0.5`). The strategy keeps the spec as its name, so reports tell variants apart.
 * @throws ConfigError naming the unknown strategy and listing the known ones, a key the strategy
 *   does not take (listing those it takes), or a value out of range.
 */
export function createStrategy(spec: string, ctx: StrategyContext): Strategy {
  const { name, overrides } = parseStrategySpec(spec);
  const factory = factories[name];
  if (!factory) {
    throw new ConfigError(`unknown strategy "${name}"; choose one of: ${Object.keys(factories).join(', ')}`, {
      context: { field: 'strategy' },
    });
  }
  const keys = factory.overrideKeys ?? [];
  for (const key of Object.keys(overrides)) {
    if (!keys.includes(key)) {
      const known = keys.length > 0 ? `it takes ${keys.join(', ')}` : 'it has no settings to override';
      throw new ConfigError(`strategy "${spec}": "${name}" has no setting "${key}"; ${known}`, {
        context: { field: 'strategy' },
      });
    }
  }
  if (Object.keys(overrides).length === 0) return factory.create(ctx, {});
  return factory.create({ ...ctx, name: spec }, overrides);
}
