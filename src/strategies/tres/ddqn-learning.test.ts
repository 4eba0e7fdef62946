import { describe, expect, it } from 'vitest';
import { createRng } from '../../common/index.js';
import { DdqnAgent } from './ddqn.js';

// A two-step toy MDP where the right first action depends on the discount:
//   start: A (reward 0.5, ends) or B (reward 0, then C (reward 1, ends) or D (reward 0, ends)).
// Q*(A) = 0.5, Q*(B) = gamma * 1, Q*(C) = 1, Q*(D) = 0: with gamma 0.9 the agent must learn to
// pass up the immediate reward for B (only reachable through the bootstrapped target); with
// gamma 0.3 it should take A. Actions are one-hot feature vectors.
const A = Float32Array.of(1, 0, 0, 0);
const B = Float32Array.of(0, 1, 0, 0);
const C = Float32Array.of(0, 0, 1, 0);
const D = Float32Array.of(0, 0, 0, 1);
const START = [A, B];
const AFTER_B = [C, D];

function stack(vectors: Float32Array[]): Float32Array {
  const out = new Float32Array(vectors.length * 4);
  vectors.forEach((v, i) => {
    out.set(v, i * 4);
  });
  return out;
}

/** Trains on the toy MDP with epsilon-greedy exploration; returns the greedy choices after training. */
function trainToy(seed: string, gamma: number, steps = 1500) {
  const rng = createRng(seed);
  const explore = rng.fork('explore');
  const agent = new DdqnAgent({
    config: {
      featureCount: 4,
      hiddenSizes: [16, 8],
      gamma,
      learningRate: 0.01,
      batchSize: 32,
      trainEvery: 1,
      warmupSteps: 100,
      targetUpdateEvery: 50,
      replayCapacity: 2_000,
    },
    rng,
  });
  const greedy = (options: Float32Array[]) => {
    const q = agent.q(stack(options), options.length);
    return q[1]! > q[0]! ? 1 : 0;
  };
  let options: Float32Array[] = START;
  for (let step = 0; step < steps; step++) {
    const i = agent.isWarmingUp(step) || explore.next() < 0.3 ? explore.int(2) : greedy(options);
    const chosen = options[i]!;
    let reward = 0;
    let next: Float32Array[] = [];
    if (chosen === A) reward = 0.5;
    else if (chosen === B) next = AFTER_B;
    else if (chosen === C) reward = 1;
    agent.observe({ x: chosen, reward, nextXs: stack(next), isDone: next.length === 0 });
    agent.maybeTrain(step);
    options = next.length === 0 ? START : next;
  }
  const [qA, qB] = agent.q(stack(START), 2);
  return { first: greedy(START) === 1 ? 'B' : 'A', second: greedy(AFTER_B) === 0 ? 'C' : 'D', qA, qB };
}

describe('DdqnAgent learning', () => {
  it('learns to pass up an immediate reward for a larger delayed one (gamma 0.9, 3 of 3 seeds)', () => {
    for (const seed of ['toy-1', 'toy-2', 'toy-3']) {
      const learned = trainToy(seed, 0.9);
      expect(learned).toMatchObject({ first: 'B', second: 'C' });
      expect(learned.qA).toBeCloseTo(0.5, 1); // Q*(A) = 0.5
      expect(learned.qB).toBeCloseTo(0.9, 1); // Q*(B) = 0 + 0.9 * Q*(C)
    }
  });

  it('takes the immediate reward when gamma makes the delayed one worth less (gamma 0.3)', () => {
    for (const seed of ['toy-1', 'toy-2', 'toy-3']) {
      const learned = trainToy(seed, 0.3);
      expect(learned).toMatchObject({ first: 'A', second: 'C' });
      expect(learned.qB).toBeCloseTo(0.3, 1);
    }
  });
});
