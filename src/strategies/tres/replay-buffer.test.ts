import { describe, expect, it } from 'vitest';
import { ConfigError, createRng } from '../../common/index.js';
import { ReplayBuffer, type Transition } from './replay-buffer.js';

function transition(i: number, candidates = 1): Transition {
  return {
    x: Float32Array.from([i, -i]),
    reward: i,
    nextXs: Float32Array.from({ length: 2 * candidates }, (_, k) => 100 * i + k),
    isDone: false,
  };
}

describe('ReplayBuffer', () => {
  it('wraps around: the oldest transitions are overwritten once capacity is reached', () => {
    const replay = new ReplayBuffer({ capacity: 3, featureCount: 2 });
    const slots = [0, 1, 2, 3, 4].map((i) => replay.add(transition(i, i + 1)));
    expect(slots).toEqual([0, 1, 2, 0, 1]);
    expect(replay.size).toBe(3);
    expect(replay.totalAdded).toBe(5);
    // slot 0 now holds transition 3, slot 1 transition 4, slot 2 still transition 2
    expect([0, 1, 2].map((s) => replay.reward(s))).toEqual([3, 4, 2]);
    expect(Array.from(replay.x(0))).toEqual([3, -3]);
    expect(replay.nextCount(0)).toBe(4);
    expect(Array.from(replay.nextXs(1)).slice(0, 2)).toEqual([400, 401]);
    expect(replay.nextCount(2)).toBe(3);
  });

  it('copies the vectors, so callers may reuse their buffers', () => {
    const replay = new ReplayBuffer({ capacity: 2, featureCount: 2 });
    const t = transition(1, 2);
    replay.add(t);
    t.x.fill(0);
    t.nextXs.fill(0);
    expect(Array.from(replay.x(0))).toEqual([1, -1]);
    expect(Array.from(replay.nextXs(0))).toEqual([100, 101, 102, 103]);
  });

  it('keeps no candidates for a transition that ended its episode', () => {
    const replay = new ReplayBuffer({ capacity: 2, featureCount: 2 });
    replay.add({ ...transition(1, 3), isDone: true });
    expect(replay.isDone(0)).toBe(true);
    expect(replay.nextCount(0)).toBe(0);
  });

  it('thins large candidate sets to an evenly strided subset that keeps the first row', () => {
    const replay = new ReplayBuffer({ capacity: 2, featureCount: 1, maxCandidates: 4 });
    replay.add({
      x: Float32Array.of(0),
      reward: 0,
      nextXs: Float32Array.from({ length: 10 }, (_, k) => k),
      isDone: false,
    });
    expect(Array.from(replay.nextXs(0))).toEqual([0, 2, 5, 7]);
  });

  it('stores a candidate set without exact duplicates, the first of each kept in order', () => {
    const replay = new ReplayBuffer({ capacity: 2, featureCount: 2 });
    replay.add({ ...transition(1), nextXs: Float32Array.of(1, 2, 3, 4, 1, 2, 0, 0, 3, 4, -0, 0, 1, 2) });
    // -0 and 0 differ in their bits: kept apart (same Q either way, only less sharing).
    expect(Array.from(replay.nextXs(0))).toEqual([1, 2, 3, 4, 0, 0, -0, 0]);
    expect(replay.nextCount(0)).toBe(4);
  });

  it('samples the same slots from the same seed, uniformly with replacement', () => {
    const replay = new ReplayBuffer({ capacity: 10, featureCount: 2 });
    for (let i = 0; i < 3; i++) replay.add(transition(i));
    const a = replay.sample(8, createRng('s'));
    const b = replay.sample(8, createRng('s'));
    expect(Array.from(b)).toEqual(Array.from(a));
    const counts = [0, 0, 0];
    const rng = createRng('uniform');
    const out = new Int32Array(100);
    for (let k = 0; k < 300; k++) for (const s of replay.sample(100, rng, out)) counts[s]!++;
    for (const c of counts) expect(c / 30_000).toBeCloseTo(1 / 3, 1);
  });

  it('rejects malformed transitions and bad options', () => {
    const replay = new ReplayBuffer({ capacity: 2, featureCount: 2 });
    expect(() => replay.sample(1, createRng(1))).toThrow(RangeError);
    expect(() => replay.add({ ...transition(1), x: Float32Array.of(1) })).toThrow(RangeError);
    expect(() => replay.add({ ...transition(1), nextXs: Float32Array.of(1, 2, 3) })).toThrow(RangeError);
    expect(() => replay.add({ ...transition(1), reward: Number.NaN })).toThrow(RangeError);
    expect(() => new ReplayBuffer({ capacity: 0, featureCount: 2 })).toThrow(ConfigError);
    expect(() => new ReplayBuffer({ featureCount: 2, maxCandidates: 0 })).toThrow(ConfigError);
  });
});
