/**
 * Adam over one flat parameter vector, written to match Keras (`keras.optimizers.Adam`) so that
 * TRES's reference hyperparameters mean the same thing here:
 * - epsilon is added to sqrt(v) *before* bias correction of the step ("epsilon hat" of Kingma &
 *   Ba, section 2): `alpha_t = lr * sqrt(1 - beta2^t) / (1 - beta1^t)`,
 *   `p -= alpha_t * m / (sqrt(v) + eps)`. Keras' default eps is 1e-7, not PyTorch's 1e-8.
 * - `clipvalue` clips every gradient element to [-clip, clip] before the moments see it.
 */
import { ConfigError } from '../common/index.js';

/** Hyperparameters of {@link Adam}. */
export interface AdamOptions {
  /** Step size. @default 1e-3 (Keras and the TRES code) */
  learningRate: number;
  /** Decay of the first moment. @default 0.9 */
  beta1: number;
  /** Decay of the second moment. @default 0.999 */
  beta2: number;
  /** Added to sqrt(v) (Keras' placement). @default 1e-7 (Keras) */
  epsilon: number;
  /**
   * Each gradient element is clipped to [-clipValue, clipValue] (Keras `clipvalue`); `false`
   * turns clipping off. @default 1 (the TRES code)
   */
  clipValue: number | false;
}

/** Keras' Adam defaults with the TRES code's `clipvalue=1.0`. */
export const DEFAULT_ADAM_OPTIONS: Readonly<AdamOptions> = Object.freeze({
  learningRate: 1e-3,
  beta1: 0.9,
  beta2: 0.999,
  epsilon: 1e-7,
  clipValue: 1,
});

/** Serialised optimiser state, for checkpoints. */
export interface AdamState {
  step: number;
  m: number[];
  v: number[];
}

/** Throws a ConfigError naming the first field of `o` out of range (`prefix` names its parent). */
export function checkAdamOptions(o: AdamOptions, prefix = ''): void {
  const positive = (name: keyof AdamOptions, value: number) => {
    if (!(Number.isFinite(value) && value > 0))
      throw new ConfigError(`${prefix}${name} must be a finite number > 0, got ${value}`, {
        context: { field: `${prefix}${name}` },
      });
  };
  positive('learningRate', o.learningRate);
  positive('epsilon', o.epsilon);
  for (const name of ['beta1', 'beta2'] as const) {
    if (!(o[name] >= 0 && o[name] < 1))
      throw new ConfigError(`${prefix}${name} must be in [0, 1), got ${o[name]}`, {
        context: { field: `${prefix}${name}` },
      });
  }
  if (o.clipValue !== false) positive('clipValue', o.clipValue);
}

/** Adam state for `size` parameters; {@link Adam.step} updates a parameter vector in place. */
export class Adam {
  readonly options: Readonly<AdamOptions>;
  /** Number of steps taken (Keras `iterations`). */
  stepCount = 0;
  private readonly m: Float64Array; // [size] first moment
  private readonly v: Float64Array; // [size] second moment

  /** Throws ConfigError if an option is out of range. */
  constructor(
    readonly size: number,
    options: Partial<AdamOptions> = {},
  ) {
    this.options = Object.freeze({ ...DEFAULT_ADAM_OPTIONS, ...options });
    checkAdamOptions(this.options);
    this.m = new Float64Array(size);
    this.v = new Float64Array(size);
  }

  /**
   * One step: clips `grads` in place (when clipping is on), updates the moments, and moves
   * `params` against the gradient. Both arrays have length `size`.
   */
  step(params: Float64Array, grads: Float64Array): void {
    const { learningRate, beta1, beta2, epsilon, clipValue } = this.options;
    const clip = clipValue === false ? Number.POSITIVE_INFINITY : clipValue;
    this.stepCount++;
    const t = this.stepCount;
    const alpha = (learningRate * Math.sqrt(1 - beta2 ** t)) / (1 - beta1 ** t);
    const m = this.m;
    const v = this.v;
    for (let i = 0; i < this.size; i++) {
      let g = grads[i]!;
      if (g > clip) g = clip;
      else if (g < -clip) g = -clip;
      grads[i] = g;
      const mi = m[i]! + (g - m[i]!) * (1 - beta1);
      const vi = v[i]! + (g * g - v[i]!) * (1 - beta2);
      m[i] = mi;
      v[i] = vi;
      params[i] = params[i]! - (alpha * mi) / (Math.sqrt(vi) + epsilon);
    }
  }

  /** Forgets the moments and the step count (used when weights are replaced wholesale). */
  reset(): void {
    this.stepCount = 0;
    this.m.fill(0);
    this.v.fill(0);
  }

  /** The moments and step count, for checkpoints. */
  toJSON(): AdamState {
    return { step: this.stepCount, m: Array.from(this.m), v: Array.from(this.v) };
  }

  /** Restores a state written by {@link Adam.toJSON}; throws ConfigError on a size mismatch. */
  load(state: AdamState): void {
    if (state.m.length !== this.size || state.v.length !== this.size)
      throw new ConfigError(`optimizer state has ${state.m.length} moments, expected ${this.size}`, {
        context: { field: 'optimizer' },
      });
    this.stepCount = state.step;
    this.m.set(state.m);
    this.v.set(state.v);
  }
}
