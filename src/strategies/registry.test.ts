import { describe, expect, it, onTestFinished } from 'vitest';
import { ConfigError, createRng } from '../common/index.js';
import { numberSetting } from '../config/index.js';
import { QueueStrategy } from './queue-strategy.js';
import {
  createStrategy,
  parseStrategySpec,
  registerStrategy,
  strategyNames,
  strategySettingsHelp,
  unregisterStrategy,
} from './registry.js';
import { defineStrategy } from './strategy-entry.js';

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
    const spec = parseStrategySpec('tres:gamma=0.5, batchSize=128');
    expect([spec.text, spec.name, spec.entry.name, spec.settings]).toEqual([
      'tres:gamma=0.5, batchSize=128',
      'tres',
      'tres',
      { gamma: 0.5, batchSize: 128 },
    ]);
    expect([String(spec), JSON.stringify({ strategy: spec })]).toEqual([
      'tres:gamma=0.5, batchSize=128',
      '{"strategy":"tres:gamma=0.5, batchSize=128"}',
    ]);
    expect(createStrategy(spec, { rng: createRng(1) }).name).toBe('tres:gamma=0.5, batchSize=128');
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
    expect(() => createStrategy('tres:learn=2', { rng: createRng(1) })).toThrow(
      /learn \(old name of isLearning\) must be 0 or 1/,
    );
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

  it('takes settings by field name, with numbers, true/false and words, and false for off', () => {
    type Config = { config?: Record<string, unknown> & { ddqn?: Record<string, unknown> } };
    const tres = createStrategy(
      'tres:isLearning=false,isDoubleQ=false,warmupPolicy=random,parentFeature=probability',
      {
        rng: createRng(1),
      },
    ) as Config;
    expect(tres.config?.ddqn).toMatchObject({ isLearning: false, isDoubleQ: false });
    expect(tres.config).toMatchObject({ warmupPolicy: 'random', parentFeature: 'probability' });
    const ache = createStrategy('ache:maxLinksPerDomain=false,isHardFocus=false,learnEveryPages=100', {
      rng: createRng(1),
    }) as Config;
    expect(ache.config).toMatchObject({ maxLinksPerDomain: false, isHardFocus: false, learnEveryPages: 100 });
    const lim = createStrategy('lim-q:reward=decision,shouldUseRealState=true,parseAbove=false', {
      rng: createRng(1),
    }) as Config;
    expect(lim.config).toMatchObject({ reward: 'decision', shouldUseRealState: true, parseAbove: false });
    const rlwcs = createStrategy('rlwcs:fixedClassifier=2,retrainEvery=false', {
      rng: createRng(1),
    }) as Config;
    expect(rlwcs.config).toMatchObject({ fixedClassifier: 2, retrainEvery: false });
  });

  it('keeps the old keys of the commands in results/ working: they give the same config', () => {
    const config = (spec: string) =>
      (createStrategy(spec, { rng: createRng(1) }) as { config?: unknown }).config;
    for (const [old, now] of [
      [
        'tres:warmupPrior=0,parentProbability=1,learn=0,doubleQ=0',
        'tres:warmupPolicy=random,parentFeature=probability,isLearning=false,isDoubleQ=false',
      ],
      [
        'lim-q:realState=1,decisionReward=1,learn=0',
        'lim-q:shouldUseRealState=true,reward=decision,shouldLearn=false',
      ],
      ['rlwcs:scoreLinks=1,learn=0', 'rlwcs:shouldScoreLinks=true,isLearning=false'],
      ['apprentice:learn=0,selectWindow=0', 'apprentice:isLearning=false,shouldSelectWindow=false'],
      ['ache:learn=0', 'ache:isLearning=false'],
      ['han-async:learn=0', 'han-async:isLearning=false'],
    ]) {
      expect(config(old!), old).toEqual(config(now!));
    }
  });

  it('says of each old key a spec uses what to write instead, in one line', () => {
    expect(parseStrategySpec('coverage:learn=0,hubSites=1,newSiteValue=2').deprecations).toEqual([
      'strategy "coverage:learn=0,hubSites=1,newSiteValue=2": learn=0 is an old key, still taken for now; write isLinkLearning=false',
      'strategy "coverage:learn=0,hubSites=1,newSiteValue=2": hubSites=1 is an old key, still taken for now; write isHubSiteValued=true',
    ]);
    expect(parseStrategySpec('coverage:isLinkLearning=false').deprecations).toEqual([]);
  });

  it('refuses the coverage settings that were removed, listing those it takes', () => {
    for (const key of [
      'keepHarvest=0.9',
      'isSoftJudged=true',
      'soft=1',
      'firstPageModel=all',
      'urlDepth=1',
      'dirYield=1',
    ])
      expect(() => parseStrategySpec(`coverage:${key}`), key).toThrow(
        /"coverage" has no setting "\w+"; it takes newSiteValue, /,
      );
  });

  it('names the field and the rule in its errors', () => {
    const make = (spec: string) => () => createStrategy(spec, { rng: createRng(1) });
    expect(make('ache:maxLinksPerDomain=0')).toThrow(
      /maxLinksPerDomain must be an integer >= 1 or false, got 0/,
    );
    expect(make('tres:warmupPolicy=best')).toThrow(/warmupPolicy must be prior or random, got best/);
    expect(make('tres:isDoubleQ=1')).toThrow(/isDoubleQ must be true or false, got 1/);
    expect(make('bfs:gamma=0.5')).toThrow(/"bfs" has no setting "gamma"; it has no settings/);
    expect(make('tree-random:gamma=0.5')).toThrow(/it takes maxDepth, minSamplesToSplit/);
  });

  it('refuses at parse time a spec whose settings break a rule between them, naming the spec', () => {
    expect(() => parseStrategySpec('lim-dfs:shouldUseRealState=true')).toThrow(
      /^strategy "lim-dfs:shouldUseRealState=true": lim-dfs: shouldUseRealState must be false/,
    );
    expect(() => parseStrategySpec('rlwcs:trainAfterPages=500,maxTrainingPages=100')).toThrow(
      /^strategy "rlwcs:trainAfterPages=500,maxTrainingPages=100": rlwcs: maxTrainingPages must be/,
    );
  });

  it('registers a strategy by name: specs name it, help lists it, taken and bad names are refused', () => {
    const made: Record<string, unknown>[] = [];
    // Test files share one module graph per worker: leave the registry as it was.
    onTestFinished(() => {
      unregisterStrategy('test-queue');
    });
    registerStrategy(
      defineStrategy({
        name: 'test-queue',
        description: 'bfs under another name',
        settings: { width: numberSetting(2, 'a test setting', { min: 1, isInteger: true }) },
        create: ({ rng, name }, settings) => {
          made.push(settings);
          return Object.assign(new QueueStrategy({ order: 'bfs', rng }), name ? { name } : {});
        },
      }),
    );
    expect(createStrategy('test-queue:width=3', { rng: createRng(1) }).name).toBe('test-queue:width=3');
    expect(made).toEqual([{ width: 3 }]);
    expect(strategyNames().at(-1)?.name).toBe('test-queue');
    expect(strategySettingsHelp()).toMatch(/ {2}test-queue {2}bfs under another name\n {4}width=2 {2}\(/);
    expect(() => createStrategy('test-queue:width=0', { rng: createRng(1) })).toThrow(
      /^strategy "test-queue:width=0": width must be an integer >= 1, got 0$/,
    );
    const entry = (name: string) =>
      defineStrategy({
        name,
        description: '',
        settings: {},
        create: () => new QueueStrategy({ order: 'bfs', rng: createRng(1) }),
      });
    expect(() => registerStrategy(entry('tres'))).toThrow(/a strategy named "tres" is registered already/);
    for (const bad of ['', 'my:strategy', 'a,b', 'a=b', 'two words', '-x'])
      expect(() => registerStrategy(entry(bad)), bad).toThrow(/is not a strategy name/);
    expect(() => unregisterStrategy('bfs')).toThrow(/"bfs" is a built-in strategy/);
    expect(unregisterStrategy('test-queue')).toBe(true);
    expect(strategyNames().map((s) => s.name)).not.toContain('test-queue');
    expect(unregisterStrategy('test-queue')).toBe(false);
  });
});
