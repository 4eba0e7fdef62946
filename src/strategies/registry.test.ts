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
      ddqn: { gamma: 0.5, batchSize: 128 },
    });
    expect(createStrategy('tres:gamma=0.5', { rng: createRng(1) }).name).toBe('tres:gamma=0.5');
    expect(createStrategy('tres', { rng: createRng(1) }).name).toBe('tres');
  });

  it('refuses unknown strategies, unknown keys, bad values and overrides of plain strategies', () => {
    for (const spec of [
      'nope',
      'tres:alpha=1',
      'tres:gamma=x',
      'tres:gamma',
      'bfs:gamma=0.5',
      'tres:gamma=2',
    ]) {
      expect(() => createStrategy(spec, { rng: createRng(1) }), spec).toThrow(ConfigError);
    }
  });
});
