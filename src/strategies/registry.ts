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
import { TresAsyncStrategy } from './tres/tres-async-strategy.js';
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
}

function tres(variant: TresTreeVariant): StrategyFactory {
  return ({ rng, keywords, ddqn, name }) =>
    new TresStrategy({
      variant,
      rng,
      keywords: keywords ?? new KeywordSet([]),
      ...(ddqn ? { ddqn } : {}),
      ...(name ? { name } : {}),
    });
}

type StrategyFactory = (ctx: StrategyContext) => Strategy;

/** `isLearning`: has a Double DQN whose settings a spec may override. */
const factories: Record<string, { describe: string; create: StrategyFactory; isLearning?: boolean }> = {
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
    isLearning: true,
  },
  'tres-nh': {
    describe: 'TRES without the two hub (domain) features',
    create: tres('tres-nh'),
    isLearning: true,
  },
  'tree-random': {
    describe: 'the Tree-Frontier with a random leaf and a random sample (no Q-network)',
    create: tres('tree-random'),
  },
  synchronous: {
    describe: 'exact argmax of Q over the whole frontier every step (slow; for comparison)',
    create: tres('synchronous'),
    isLearning: true,
  },
  'tres-async': {
    describe: 'TRES features and DDQN, frontier scored once on insertion (Han et al.), best-first',
    create: ({ rng, keywords, ddqn, name }) =>
      new TresAsyncStrategy({
        rng,
        keywords: keywords ?? new KeywordSet([]),
        ...(ddqn ? { ddqn } : {}),
        ...(name ? { name } : {}),
      }),
    isLearning: true,
  },
};

/** Names of the strategies that exist, with a one-line description each. */
export function strategyNames(): { name: string; describe: string }[] {
  return Object.entries(factories).map(([name, f]) => ({ name, describe: f.describe }));
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

/**
 * Parses a strategy spec `NAME` or `NAME:key=value,...` (Double DQN overrides for the RL
 * strategies, e.g. `tres:gamma=0.5`).
 * @throws ConfigError naming the bad part.
 */
export function parseStrategySpec(spec: string): { name: string; ddqn: Partial<DdqnConfig> } {
  const colon = spec.indexOf(':');
  const name = (colon < 0 ? spec : spec.slice(0, colon)).trim();
  const ddqn: Record<string, number> = {};
  if (colon >= 0) {
    for (const part of spec.slice(colon + 1).split(',')) {
      const [key, value] = part.split('=').map((t) => t.trim());
      const number = Number(value);
      if (
        !key ||
        !(DDQN_KEYS as readonly string[]).includes(key) ||
        value === undefined ||
        value === '' ||
        !Number.isFinite(number)
      ) {
        throw new ConfigError(
          `strategy "${spec}": "${part}" is not KEY=NUMBER with KEY one of ${DDQN_KEYS.join(', ')}`,
          { context: { field: 'strategy' } },
        );
      }
      ddqn[key] = number;
    }
  }
  return { name, ddqn: ddqn as Partial<DdqnConfig> };
}

/**
 * Makes a strategy from a spec: a name (`tres`) or a name with Double DQN overrides
 * (`tres:gamma=0.5`). The strategy keeps the spec as its name, so reports tell variants apart.
 * @throws ConfigError naming the unknown strategy and listing the known ones, or a bad override.
 */
export function createStrategy(spec: string, ctx: StrategyContext): Strategy {
  const { name, ddqn } = parseStrategySpec(spec);
  const factory = factories[name];
  if (!factory) {
    throw new ConfigError(`unknown strategy "${name}"; choose one of: ${Object.keys(factories).join(', ')}`, {
      context: { field: 'strategy' },
    });
  }
  if (Object.keys(ddqn).length === 0) return factory.create(ctx);
  if (!factory.isLearning) {
    throw new ConfigError(`strategy "${name}" has no Double DQN settings to override (in "${spec}")`, {
      context: { field: 'strategy' },
    });
  }
  return factory.create({ ...ctx, ddqn: { ...ctx.ddqn, ...ddqn }, name: spec });
}
