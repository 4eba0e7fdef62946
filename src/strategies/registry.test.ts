import { describe, expect, it } from 'vitest';
import { ConfigError } from '../common/errors.js';
import { createRng } from '../common/rng.js';
import { createStrategy, parseStrategySpec, strategyNames } from './registry.js';

describe('strategy registry', () => {
  it('knows the plain and the TRES strategies', () => {
    expect(strategyNames().map((s) => s.name)).toEqual(
      expect.arrayContaining([
        'bfs',
        'random',
        'best-first',
        'tres',
        'tres-nh',
        'tree-random',
        'synchronous',
        'tres-async',
      ]),
    );
  });

  it('parses Double DQN overrides and reports the full spec as the name', () => {
    expect(parseStrategySpec('tres:gamma=0.5, batchSize=128')).toEqual({
      name: 'tres',
      overrides: { gamma: 0.5, batchSize: 128 },
    });
    expect(createStrategy('tres:gamma=0.5', { rng: createRng(1) }).name).toBe('tres:gamma=0.5');
    expect(createStrategy('tres', { rng: createRng(1) }).name).toBe('tres');
  });

  it('passes tree overrides to the Tree-Frontier and DDQN overrides to the agent, and records them in the config', () => {
    const strategy = createStrategy('tres:maxDepth=4,gamma=0.5', { rng: createRng(1) }) as {
      config?: { tree: { maxDepth: number }; ddqn: { gamma: number } };
    };
    expect(strategy.config?.tree.maxDepth).toBe(4);
    expect(strategy.config?.ddqn.gamma).toBe(0.5);
    const prior = createStrategy('tres:warmupPrior=1', { rng: createRng(1) }) as {
      config?: { warmupPolicy: string };
    };
    expect(prior.config?.warmupPolicy).toBe('prior');
    const random = createStrategy('tres:warmupPrior=0', { rng: createRng(1) }) as {
      config?: { warmupPolicy: string };
    };
    expect(random.config?.warmupPolicy).toBe('random');
    const bonus = createStrategy('tres:newDomainBonus=0.5', { rng: createRng(1) }) as {
      config?: { newDomainBonus: number };
    };
    expect(bonus.config?.newDomainBonus).toBe(0.5);
    expect(() => createStrategy('tres:newDomainBonus=-1', { rng: createRng(1) })).toThrow(/newDomainBonus/);
    const explore = createStrategy('tres:epsilon=0.1', { rng: createRng(1) }) as {
      config?: { epsilon: number };
    };
    expect(explore.config?.epsilon).toBe(0.1);
    expect(() => createStrategy('tres:epsilon=2', { rng: createRng(1) })).toThrow(/epsilon/);
    const parentP = createStrategy('tres:parentProbability=1', { rng: createRng(1) }) as {
      config?: { parentFeature: string };
    };
    expect(parentP.config?.parentFeature).toBe('probability');
    const asyncBonus = createStrategy('tres-async:newDomainBonus=1,gamma=0.5', { rng: createRng(1) }) as {
      config?: { newDomainBonus: number; ddqn: { gamma: number } };
    };
    expect(asyncBonus.config?.newDomainBonus).toBe(1);
    expect(asyncBonus.config?.ddqn.gamma).toBe(0.5);
  });

  it("turns the agent's learning, double Q and candidate cap on and off by spec (tres, synchronous, tres-async)", () => {
    for (const name of ['tres', 'synchronous', 'tres-async']) {
      const s = createStrategy(`${name}:learn=0,doubleQ=0,maxNextCandidates=8`, { rng: createRng(1) }) as {
        config?: { ddqn: { isLearning: boolean; isDoubleQ: boolean; maxNextCandidates: number | false } };
      };
      expect(s.config?.ddqn, name).toMatchObject({
        isLearning: false,
        isDoubleQ: false,
        maxNextCandidates: 8,
      });
      const plain = createStrategy(name, { rng: createRng(1) }) as typeof s;
      expect(plain.config?.ddqn, name).toMatchObject({
        isLearning: true,
        isDoubleQ: true,
        maxNextCandidates: false,
      });
    }
    expect(() => createStrategy('tres:learn=2', { rng: createRng(1) })).toThrow(/"learn" must be 0 or 1/);
    expect(() => createStrategy('tree-random:learn=0', { rng: createRng(1) })).toThrow(ConfigError);
  });

  it('refuses unknown strategies, unknown keys, bad values and overrides of plain strategies', () => {
    for (const spec of [
      'nope',
      'tres:alpha=1',
      'tres:gamma=x',
      'tres:gamma',
      'bfs:gamma=0.5',
      'tres:gamma=2',
      'tree-random:gamma=0.5',
      'tres:maxDepth=-1',
    ]) {
      expect(() => createStrategy(spec, { rng: createRng(1) }), spec).toThrow(ConfigError);
    }
  });
});
