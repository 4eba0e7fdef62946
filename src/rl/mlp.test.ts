import { describe, expect, it } from 'vitest';
import { ConfigError, createRng } from '../common/index.js';
import { Mlp, type MlpJson, PREDICT_CHUNK_ROWS } from './mlp.js';

function randomInputs(seed: string, n: number, size: number): Float32Array {
  const rng = createRng(seed);
  return Float32Array.from({ length: n * size }, () => rng.normal());
}

describe('Mlp', () => {
  it('computes LeakyReLU(0.1) hidden units and a linear output from hand-set weights', () => {
    const mlp = new Mlp({ inputSize: 2, hiddenSizes: [2] }, createRng(1));
    // W1 [2, 2], b1 [2], W2 [1, 2], b2 [1]
    mlp.params.set([1, -1, 2, 0, 0, -3, 1, 0.5, 0.25]);
    const q = mlp.predict(Float32Array.from([4, 1, 1, 2]), 2);
    // row (4, 1): z = (3, 5), both positive: 3 + 0.5 * 5 + 0.25
    expect(q[0]).toBeCloseTo(5.75, 6);
    // row (1, 2): z = (-1, -1) -> (-0.1, -0.1): -0.1 - 0.05 + 0.25
    expect(q[1]).toBeCloseTo(0.1, 6);
  });

  it('has a gradient that matches central finite differences', () => {
    const mlp = new Mlp({ inputSize: 4, hiddenSizes: [6, 5] }, createRng('grad'));
    const rng = createRng('grad-biases');
    for (let k = 0; k < mlp.params.length; k++) mlp.params[k] = mlp.params[k]! + 0.3 * rng.normal();
    const n = 7;
    const xs = randomInputs('grad-x', n, 4);
    const targets = Float32Array.from({ length: n }, () => rng.normal());
    const analytic = new Float64Array(mlp.parameterCount);
    mlp.gradient(xs, targets, n, analytic);
    const h = 1e-6;
    let worst = 0;
    for (let k = 0; k < mlp.parameterCount; k++) {
      const saved = mlp.params[k]!;
      mlp.params[k] = saved + h;
      const up = mlp.loss(xs, targets, n);
      mlp.params[k] = saved - h;
      const down = mlp.loss(xs, targets, n);
      mlp.params[k] = saved;
      const numeric = (up - down) / (2 * h);
      const a = analytic[k]!;
      worst = Math.max(worst, Math.abs(a - numeric) / Math.max(1, Math.abs(a), Math.abs(numeric)));
    }
    expect(mlp.parameterCount).toBe(4 * 6 + 6 + 6 * 5 + 5 + 5 + 1);
    expect(worst).toBeLessThan(1e-6);
  });

  it('takes one clipped Adam step on a hand-computed batch and returns the loss before it', () => {
    const mlp = new Mlp({ inputSize: 1, hiddenSizes: [1, 1], learningRate: 0.1 }, createRng(1));
    mlp.params.set([1, 0, 1, 0, 1, 0]); // W1 b1 W2 b2 W3 b3
    const xs = Float32Array.from([2]);
    const t = Float32Array.from([0]);
    // y = 2, loss = 4, dL/dy = 4: every weight gradient is 4 * 2 = 8, every bias gradient 4
    const g = new Float64Array(6);
    expect(mlp.gradient(xs, t, 1, g)).toBe(4);
    expect(Array.from(g)).toEqual([8, 4, 8, 4, 8, 4]);
    expect(mlp.trainBatch(xs, t, 1)).toBe(4);
    // all clipped to 1: the first Keras Adam step with g = 1 and lr = 0.1 (see adam.test.ts)
    const step = 0.09999968377323398;
    const expected = [1 - step, -step, 1 - step, -step, 1 - step, -step];
    for (let k = 0; k < 6; k++) expect(mlp.params[k]).toBeCloseTo(expected[k]!, 14);
  });

  it('scores a vector identically whatever its place or batch size', () => {
    const mlp = new Mlp({ inputSize: 9 }, createRng('batch'));
    const xs = randomInputs('batch-x', 7, 9);
    const batched = Array.from(mlp.predict(xs, 7));
    const single = Array.from({ length: 7 }, (_, r) => mlp.predict(xs.subarray(r * 9, r * 9 + 9), 1)[0]);
    expect(single).toEqual(batched);
  });

  it('scores a batch larger than one chunk exactly as row by row, chunk edges included', () => {
    const mlp = new Mlp({ inputSize: 9 }, createRng('chunks'));
    const n = 2 * PREDICT_CHUNK_ROWS + 3;
    const xs = randomInputs('chunks-x', n, 9);
    const batched = mlp.predict(xs, n);
    for (const r of [0, PREDICT_CHUNK_ROWS - 1, PREDICT_CHUNK_ROWS, 2 * PREDICT_CHUNK_ROWS, n - 1]) {
      expect(batched[r]).toBe(mlp.predict(xs.subarray(r * 9, r * 9 + 9), 1)[0]);
    }
    expect(() => mlp.predict(xs, n + 1)).toThrow(RangeError);
  });

  it('gives the same gradients whatever it scored before, for batches smaller and larger than a chunk', () => {
    for (const n of [60, PREDICT_CHUNK_ROWS + 5]) {
      const fresh = new Mlp({ inputSize: 9 }, createRng('reuse'));
      const used = new Mlp({ inputSize: 9 }, createRng('reuse'));
      const big = 3 * PREDICT_CHUNK_ROWS;
      used.predict(randomInputs('reuse-big', big, 9), big);
      const xs = randomInputs('reuse-x', n, 9);
      const targets = Float32Array.from(randomInputs('reuse-t', n, 1));
      const a = new Float64Array(fresh.parameterCount);
      const b = new Float64Array(used.parameterCount);
      expect(used.gradient(xs, targets, n, b)).toBe(fresh.gradient(xs, targets, n, a));
      expect(Array.from(b)).toEqual(Array.from(a));
    }
  });

  it('initialises deterministically: Glorot-uniform weights, zero biases', () => {
    const a = new Mlp({ inputSize: 9 }, createRng('init'));
    const b = new Mlp({ inputSize: 9 }, createRng('init'));
    const c = new Mlp({ inputSize: 9 }, createRng('other'));
    expect(a.layerSizes).toEqual([9, 30, 15, 1]);
    expect(Array.from(b.params)).toEqual(Array.from(a.params));
    expect(Array.from(c.params)).not.toEqual(Array.from(a.params));
    const w1 = a.params.subarray(0, 9 * 30);
    const b1 = a.params.subarray(9 * 30, 9 * 30 + 30);
    expect(Math.max(...w1.map(Math.abs))).toBeLessThanOrEqual(Math.sqrt(6 / 39));
    expect(Array.from(b1).every((v) => v === 0)).toBe(true);
  });

  it('fits a small regression', () => {
    const mlp = new Mlp({ inputSize: 2, hiddenSizes: [8, 8], learningRate: 0.01 }, createRng('fit'));
    const n = 32;
    const xs = randomInputs('fit-x', n, 2);
    const t = Float32Array.from({ length: n }, (_, r) => 2 * xs[2 * r]! - xs[2 * r + 1]!);
    const before = mlp.loss(xs, t, n);
    for (let i = 0; i < 500; i++) mlp.trainBatch(xs, t, n);
    expect(mlp.loss(xs, t, n)).toBeLessThan(before / 50);
  });

  it('round-trips weights and Adam state through JSON, so training resumes identically', () => {
    const mlp = new Mlp({ inputSize: 3, hiddenSizes: [4, 3] }, createRng('json'));
    const xs = randomInputs('json-x', 5, 3);
    const t = Float32Array.from([1, 0, 1, 0, 1]);
    for (let i = 0; i < 3; i++) mlp.trainBatch(xs, t, 5);
    const copy = Mlp.fromJSON(JSON.parse(JSON.stringify(mlp.toJSON())) as MlpJson);
    expect(Array.from(copy.predict(xs, 5))).toEqual(Array.from(mlp.predict(xs, 5)));
    mlp.trainBatch(xs, t, 5);
    copy.trainBatch(xs, t, 5);
    expect(Array.from(copy.params)).toEqual(Array.from(mlp.params));
  });

  it('copies weights from a network of the same shape and refuses another shape', () => {
    const a = new Mlp({ inputSize: 3 }, createRng('a'));
    const b = new Mlp({ inputSize: 3 }, createRng('b'));
    b.copyFrom(a);
    expect(Array.from(b.params)).toEqual(Array.from(a.params));
    expect(() => b.copyFrom(new Mlp({ inputSize: 4 }, createRng('c')))).toThrow(TypeError);
  });

  it('rejects bad options with a ConfigError naming the field', () => {
    const fieldOf = (make: () => unknown) => {
      try {
        make();
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as ConfigError).context.field;
      }
      return undefined;
    };
    expect(fieldOf(() => new Mlp({ inputSize: 0 }, createRng(1)))).toBe('inputSize');
    expect(fieldOf(() => new Mlp({ inputSize: 2, hiddenSizes: [] }, createRng(1)))).toBe('hiddenSizes');
    expect(fieldOf(() => new Mlp({ inputSize: 2, leakySlope: 1 }, createRng(1)))).toBe('leakySlope');
    expect(fieldOf(() => new Mlp({ inputSize: 2, clipValue: 0 }, createRng(1)))).toBe('clipValue');
  });
});
