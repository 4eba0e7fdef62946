import { describe, expect, it } from 'vitest';
import { ConfigError } from '../common/index.js';
import { Adam } from './adam.js';

// Expected values worked out separately (plain Python, the Keras formulas):
//   g <- clip(g, -1, 1); m <- 0.9 m + 0.1 g; v <- 0.999 v + 0.001 g^2
//   alpha_t = lr sqrt(1 - 0.999^t) / (1 - 0.9^t); p <- p - alpha_t m / (sqrt(v) + 1e-7)
// with lr = 0.1. Parameter 0 sees gradients 5 then 0.5 (the 5 is clipped to 1), parameter 1 sees
// -0.3 then 0.2 (never clipped).
describe('Adam', () => {
  it('matches hand-computed Keras Adam steps with value clipping at 1', () => {
    const adam = new Adam(2, { learningRate: 0.1 });
    const params = new Float64Array([0, 0]);
    adam.step(params, new Float64Array([5, -0.3]));
    expect(params[0]).toBeCloseTo(-0.09999968377323398, 14);
    expect(params[1]).toBeCloseTo(0.09999894591855761, 14);
    adam.step(params, new Float64Array([0.5, 0.2]));
    expect(params[0]).toBeCloseTo(-0.1932173838893756, 14);
    expect(params[1]).toBeCloseTo(0.11445087209452881, 14);
    expect(adam.stepCount).toBe(2);
  });

  it('without clipping a large gradient moves the moments differently', () => {
    const adam = new Adam(1, { learningRate: 0.1, clipValue: false });
    const params = new Float64Array([0]);
    adam.step(params, new Float64Array([5]));
    expect(params[0]).toBeCloseTo(-0.09999993675448679, 14);
    adam.step(params, new Float64Array([0.5]));
    expect(params[0]).toBeCloseTo(-0.1740809543927181, 14);
  });

  it('writes the clipped gradient back into the gradient array', () => {
    const grads = new Float64Array([3, -7, 0.25]);
    new Adam(3).step(new Float64Array(3), grads);
    expect(Array.from(grads)).toEqual([1, -1, 0.25]);
  });

  it('round-trips its moments through toJSON and load', () => {
    const a = new Adam(2, { learningRate: 0.05 });
    const pa = new Float64Array([1, 2]);
    a.step(pa, new Float64Array([0.3, -0.1]));
    const b = new Adam(2, { learningRate: 0.05 });
    b.load(a.toJSON());
    const pb = pa.slice();
    a.step(pa, new Float64Array([0.2, 0.4]));
    b.step(pb, new Float64Array([0.2, 0.4]));
    expect(Array.from(pb)).toEqual(Array.from(pa));
  });

  it('rejects out-of-range options with a ConfigError naming the field', () => {
    expect(() => new Adam(1, { beta2: 1 })).toThrow(ConfigError);
    try {
      new Adam(1, { learningRate: -1 });
    } catch (error) {
      expect((error as ConfigError).context.field).toBe('learningRate');
    }
    expect.assertions(2);
  });
});
