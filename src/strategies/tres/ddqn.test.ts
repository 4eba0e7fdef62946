import { describe, expect, it } from 'vitest';
import { ConfigError, createRng } from '../../common/index.js';
import type { Mlp } from '../../rl/index.js';
import { DdqnAgent } from './ddqn.js';
import { DEFAULT_DDQN_CONFIG, resolveDdqnConfig } from './ddqn-config.js';

// Networks [2, 2, 2, 1] with identity hidden layers and zero biases, so for x >= 0
// Q(x) = W3 . x: the online net scores x0, the target net scores x1.
// Layout: W1 [2, 2], b1 [2], W2 [2, 2], b2 [2], W3 [1, 2], b3 [1].
const ONLINE_SCORES_X0 = [1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0];
const TARGET_SCORES_X1 = [1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0];

function handMadeAgent(isDoubleQ: boolean): DdqnAgent {
  const agent = new DdqnAgent({
    config: { featureCount: 2, hiddenSizes: [2, 2], gamma: 0.5, isDoubleQ },
    rng: createRng('hand'),
  });
  (agent.online as Mlp).params.set(ONLINE_SCORES_X0);
  (agent.target as Mlp).params.set(TARGET_SCORES_X1);
  const add = (reward: number, next: number[], isDone = false) =>
    agent.observe({ x: Float32Array.of(1, 1), reward, nextXs: Float32Array.from(next), isDone });
  add(1, [1, 0, 0, 2]); // slot 0: online picks (1,0); the target scores it 0 (DQN: max target 2)
  add(0.5, [3, 1, 2, 5, 0.5, 0.5]); // slot 1: online picks (3,1) -> 1 (DQN: 5)
  add(0.25, [9, 9], true); // slot 2: done, y = r
  add(0, []); // slot 3: no candidates, y = r
  add(2, [2, 1, 2, 7]); // slot 4: online tie at 2 -> the first, (2,1) -> 1 (DQN: 7)
  return agent;
}

describe('DdqnAgent.computeTargets', () => {
  const slots = Int32Array.from([4, 0, 1, 2, 3, 0]);

  it('lets the online net pick a* and the target net score it (hand-computed batch)', () => {
    const y = handMadeAgent(true).computeTargets(slots);
    // y = r + 0.5 * Q_target(x_a*)
    expect(Array.from(y)).toEqual([2 + 0.5 * 1, 1 + 0.5 * 0, 0.5 + 0.5 * 1, 0.25, 0, 1 + 0.5 * 0]);
  });

  it('gives the targets of the full candidate sets when their duplicate rows are not stored', () => {
    const rng = createRng('dups');
    const agent = new DdqnAgent({ config: { featureCount: 3 }, rng: createRng('dups-agent') });
    const sets: Float32Array[] = [];
    for (let t = 0; t < 8; t++) {
      // Rows drawn from 3 distinct vectors, so most rows repeat an earlier one.
      const pool = [0, 1, 2].map(() => [rng.next(), rng.int(2), rng.next()]);
      const rows = Array.from({ length: 12 }, () => pool[rng.int(3)]!);
      sets.push(Float32Array.from(rows.flat()));
      agent.observe({ x: Float32Array.of(0, 0, 0), reward: t, nextXs: sets[t]!, isDone: false });
    }
    const y = agent.computeTargets(Int32Array.from([0, 1, 2, 3, 4, 5, 6, 7]));
    // Fresh agent: target = online, so y = r + gamma * max Q over the full set.
    const gamma = agent.config.gamma;
    sets.forEach((m, t) => {
      const q = agent.q(m, m.length / 3);
      expect(y[t]).toBeCloseTo(t + gamma * Math.max(...q), 5);
    });
  });

  it('differs from the DQN target, where the target net both picks and scores', () => {
    const y = handMadeAgent(false).computeTargets(slots);
    expect(Array.from(y)).toEqual([2 + 0.5 * 7, 1 + 0.5 * 2, 0.5 + 0.5 * 5, 0.25, 0, 1 + 0.5 * 2]);
  });
});

function fillReplay(agent: DdqnAgent, count: number, seed: string): void {
  const rng = createRng(seed);
  const f = agent.config.featureCount;
  for (let i = 0; i < count; i++) {
    const next = 1 + rng.int(5);
    agent.observe({
      x: Float32Array.from({ length: f }, () => rng.next()),
      reward: rng.int(2),
      nextXs: Float32Array.from({ length: next * f }, () => rng.next()),
      isDone: false,
    });
  }
}

describe('DdqnAgent schedule', () => {
  it('trains every trainEvery steps after the warm-up and copies the target every targetUpdateEvery steps', () => {
    const agent = new DdqnAgent({
      config: { featureCount: 3, warmupSteps: 10, trainEvery: 3, targetUpdateEvery: 5, batchSize: 4 },
      rng: createRng('schedule'),
    });
    fillReplay(agent, 20, 'schedule-data');
    const trainedAt: number[] = [];
    const online = agent.online as Mlp;
    const target = agent.target as Mlp;
    for (let step = 0; step <= 18; step++) {
      if (agent.maybeTrain(step) !== undefined) trainedAt.push(step);
      if (step === 15) expect(Array.from(target.params)).toEqual(Array.from(online.params));
    }
    expect(trainedAt).toEqual([12, 15, 18]);
    expect(Array.from(target.params)).not.toEqual(Array.from(online.params)); // trained at 18, no copy
    expect(agent.stats()).toMatchObject({
      'rl/train_steps': 3,
      'rl/target_updates': 4,
      'rl/replay_size': 20,
    });
    expect(Number.isFinite(agent.stats()['rl/td_loss'])).toBe(true);
    expect(() => agent.maybeTrain(18)).toThrow(RangeError);
    expect(agent.isWarmingUp(9)).toBe(true);
    expect(agent.isWarmingUp(10)).toBe(false);
  });

  it('never trains with isLearning false: the online net keeps its initial weights', () => {
    const config = { featureCount: 3, warmupSteps: 2, trainEvery: 1, batchSize: 4 };
    const frozen = new DdqnAgent({ config: { ...config, isLearning: false }, rng: createRng('frozen') });
    const learner = new DdqnAgent({ config, rng: createRng('frozen') });
    const initial = Array.from((frozen.online as Mlp).params);
    expect(Array.from((learner.online as Mlp).params)).toEqual(initial);
    fillReplay(frozen, 20, 'frozen-data');
    fillReplay(learner, 20, 'frozen-data');
    for (let step = 0; step <= 10; step++) {
      expect(frozen.maybeTrain(step)).toBeUndefined();
      learner.maybeTrain(step);
    }
    expect(Array.from((frozen.online as Mlp).params)).toEqual(initial);
    expect(Array.from((learner.online as Mlp).params)).not.toEqual(initial);
    expect(frozen.stats()['rl/train_steps']).toBe(0);
  });

  it('reports NaN metrics before the first training step', () => {
    const stats = new DdqnAgent({ rng: createRng(1) }).stats();
    expect(stats['rl/td_loss']).toBeNaN();
    expect(stats['rl/q_mean']).toBeNaN();
  });
});

describe('DdqnAgent determinism and checkpoints', () => {
  const run = (seed: string) => {
    const agent = new DdqnAgent({ config: { featureCount: 4, batchSize: 16 }, rng: createRng(seed) });
    fillReplay(agent, 200, 'data');
    for (let i = 0; i < 100; i++) agent.trainStep();
    return agent;
  };

  it('repeats exactly from the same seed (same weights after training)', () => {
    const a = run('seed-1');
    const b = run('seed-1');
    const c = run('seed-2');
    expect(Array.from((b.online as Mlp).params)).toEqual(Array.from((a.online as Mlp).params));
    expect(b.stats()).toEqual(a.stats());
    expect(Array.from((c.online as Mlp).params)).not.toEqual(Array.from((a.online as Mlp).params));
  });

  it('restores both networks and the counters from a checkpoint', () => {
    const a = run('ckpt');
    a.syncTarget();
    a.trainStep(); // online and target now differ
    const b = DdqnAgent.fromJSON(JSON.parse(JSON.stringify(a.toJSON())), createRng('ckpt'));
    expect(Array.from((b.online as Mlp).params)).toEqual(Array.from((a.online as Mlp).params));
    expect(Array.from((b.target as Mlp).params)).toEqual(Array.from((a.target as Mlp).params));
    expect(b.stats()['rl/train_steps']).toBe(101);
    expect(b.replay.size).toBe(0);
  });
});

describe('DdqnConfig', () => {
  it('defaults to the reference values', () => {
    expect(resolveDdqnConfig()).toMatchObject({
      hiddenSizes: [30, 15],
      leakySlope: 0.1,
      gamma: 0.99,
      learningRate: 1e-3,
      adamEpsilon: 1e-7,
      clipValue: 1,
      batchSize: 60,
      trainEvery: 3,
      warmupSteps: 300,
      targetUpdateEvery: 500,
      replayCapacity: 20_000,
      isDoubleQ: true,
    });
    expect(DEFAULT_DDQN_CONFIG.featureCount).toBe(9);
  });

  it('rejects out-of-range values with a ConfigError naming the field', () => {
    const fieldOf = (overrides: Parameters<typeof resolveDdqnConfig>[0]) => {
      try {
        resolveDdqnConfig(overrides);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as ConfigError).context.field;
      }
      return undefined;
    };
    expect(fieldOf({ gamma: 1 })).toBe('gamma');
    expect(fieldOf({ batchSize: 0 })).toBe('batchSize');
    expect(fieldOf({ warmupSteps: -1 })).toBe('warmupSteps');
    expect(fieldOf({ trainEvery: 1.5 })).toBe('trainEvery');
    expect(fieldOf({ hiddenSizes: [] })).toBe('hiddenSizes');
    expect(fieldOf({ maxNextCandidates: 0 })).toBe('maxNextCandidates');
    expect(fieldOf({ gamma: 0, warmupSteps: 0 })).toBeUndefined();
  });
});
