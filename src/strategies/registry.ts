/**
 * Strategies by name, for the command line, the library and the benchmarks. Later issues add
 * TRES and the other crawlers of the papers here.
 */
import { ConfigError } from '../common/errors.js';
import type { Rng } from '../common/rng.js';
import { QueueStrategy } from './queue-strategy.js';
import type { Strategy } from './strategy.js';

/** What every strategy factory receives. */
export interface StrategyContext {
  /** The run's random stream, already forked for the strategy. */
  rng: Rng;
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
