/**
 * Strategies by name, for the command line, the library and the benchmarks. Later issues add
 * TRES and the other crawlers of the papers here.
 */
import { ConfigError } from '../common/errors.js';
import type { Rng } from '../common/rng.js';
import type { DdqnConfig } from '../rl/ddqn-config.js';
import { KeywordSet } from '../text/index.js';
import { QueueStrategy } from './queue-strategy.js';
import type { Strategy } from './strategy.js';
import { TresAsyncStrategy } from './tres-async-strategy.js';
import { TresStrategy, type TresVariant } from './tres-strategy.js';

/** What every strategy factory receives. */
export interface StrategyContext {
  /** The run's random stream, already forked for the strategy. */
  rng: Rng;
  /** The topic's (expanded) keywords and keyphrases, for strategies with keyword features. */
  keywords?: KeywordSet;
  /** Overrides of the Double DQN hyperparameters, for the RL strategies. */
  ddqn?: Partial<DdqnConfig>;
}

function tres(variant: TresVariant): StrategyFactory {
  return ({ rng, keywords, ddqn }) =>
    new TresStrategy({ variant, rng, keywords: keywords ?? new KeywordSet([]), ...(ddqn ? { ddqn } : {}) });
}

type StrategyFactory = (ctx: StrategyContext) => Strategy;

const factories: Record<string, { describe: string; create: StrategyFactory }> = {
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
  },
  'tres-nh': {
    describe: 'TRES without the two hub (domain) features',
    create: tres('tres-nh'),
  },
  'tree-random': {
    describe: 'the Tree-Frontier with a random leaf and a random sample (no Q-network)',
    create: tres('tree-random'),
  },
  synchronous: {
    describe: 'exact argmax of Q over the whole frontier every step (slow; for comparison)',
    create: tres('synchronous'),
  },
  'tres-async': {
    describe: 'TRES features and DDQN, frontier scored once on insertion (Han et al.), best-first',
    create: ({ rng, keywords, ddqn }) =>
      new TresAsyncStrategy({ rng, keywords: keywords ?? new KeywordSet([]), ...(ddqn ? { ddqn } : {}) }),
  },
};

/** Names of the strategies that exist, with a one-line description each. */
export function strategyNames(): { name: string; describe: string }[] {
  return Object.entries(factories).map(([name, f]) => ({ name, describe: f.describe }));
}

/**
 * Makes a strategy by name.
 * @throws ConfigError naming the unknown strategy and listing the known ones.
 */
export function createStrategy(name: string, ctx: StrategyContext): Strategy {
  const factory = factories[name];
  if (!factory) {
    throw new ConfigError(`unknown strategy "${name}"; choose one of: ${Object.keys(factories).join(', ')}`, {
      context: { field: 'strategy' },
    });
  }
  return factory.create(ctx);
}
