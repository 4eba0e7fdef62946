/**
 * The TRES Q-network: a small fully connected net, input -> 30 -> 15 -> 1, LeakyReLU(0.1) on the
 * hidden layers, a linear output, MSE loss and Keras-style Adam with value clipping (the authors'
 * `ActionScorerBaseline`). Plain typed-array code, not tfjs (an architecture decision): the net
 * has under a thousand weights and sits on the crawl's hot path, where arithmetic this small
 * would be dwarfed by a framework's per-call overhead.
 *
 * Precision: weights, activations and gradients are Float64Array; inputs and outputs are
 * Float32Array (compact in the replay buffer and the frontier). JS arithmetic is double either
 * way: measured on this machine (node 20, 9 -> 30 -> 15 -> 1), Float32Array storage was not
 * faster (0.5-0.8 us per vector at batch 2,500 and ~200 us per training batch of 60 for both,
 * within the noise of a shared 2-core box), so the extra precision is free, and it keeps Adam's
 * small steps exact and the finite-difference gradient check tight.
 *
 * Parameter layout (one flat vector, so Adam and copies are single loops): for each layer l in
 * order, its weights W_l [out_l, in_l] row-major, then its biases b_l [out_l].
 */
import { ConfigError, createRng, type Rng } from '../common/index.js';
import { Adam, type AdamOptions, type AdamState, checkAdamOptions, DEFAULT_ADAM_OPTIONS } from './adam.js';
import { denseForward } from './dense.js';
import type { QNetwork } from './q-network.js';

/** Shape and training hyperparameters of an {@link Mlp}. */
export interface MlpOptions extends AdamOptions {
  /** Features per input vector. Required. */
  inputSize: number;
  /** Widths of the hidden layers, in order. @default [30, 15] (the TRES code) */
  hiddenSizes: readonly number[];
  /** Slope of LeakyReLU for negative inputs. @default 0.1 (the TRES code) */
  leakySlope: number;
}

/** Defaults of everything but `inputSize`: the TRES code's network and Keras' Adam. */
/**
 * Rows {@link Mlp.predict} runs through the layers at a time (a multiple of the kernel's 4). The
 * layer buffers hold this many rows: 1,024 x (9 + 30 + 15 + 1) Float64 values is 450 KB for
 * TRES's network (4,096 rows, grown by doubling to 6,144, held 2.4 MB).
 */
export const PREDICT_CHUNK_ROWS = 1024;

export const DEFAULT_MLP_OPTIONS: Readonly<Omit<MlpOptions, 'inputSize'>> = Object.freeze({
  ...DEFAULT_ADAM_OPTIONS,
  hiddenSizes: Object.freeze([30, 15]),
  leakySlope: 0.1,
});

/** A checkpoint of an {@link Mlp}: shape, hyperparameters, weights and Adam state. */
export interface MlpJson {
  kind: 'mlp';
  options: MlpOptions;
  params: number[];
  optimizer: AdamState;
}

function checkMlpOptions(o: MlpOptions): void {
  const isPosInt = (v: number) => Number.isInteger(v) && v > 0;
  if (!isPosInt(o.inputSize))
    throw new ConfigError(`inputSize must be an integer > 0, got ${o.inputSize}`, {
      context: { field: 'inputSize' },
    });
  if (o.hiddenSizes.length === 0 || !o.hiddenSizes.every(isPosInt))
    throw new ConfigError(`hiddenSizes must be integers > 0, got [${o.hiddenSizes.join(', ')}]`, {
      context: { field: 'hiddenSizes' },
    });
  if (!(o.leakySlope >= 0 && o.leakySlope < 1))
    throw new ConfigError(`leakySlope must be in [0, 1), got ${o.leakySlope}`, {
      context: { field: 'leakySlope' },
    });
  checkAdamOptions(o);
}

/** Rows for a layer buffer that holds `current` and needs `n`: doubling, but not past a predict chunk unless `n` is larger. */
function bufferRows(current: number, n: number): number {
  return Math.max(n, Math.min(current * 2, PREDICT_CHUNK_ROWS), 64);
}

/** Multilayer perceptron with one linear output; implements {@link QNetwork}. */
export class Mlp implements QNetwork {
  readonly options: Readonly<MlpOptions>;
  readonly inputSize: number;
  /** [inputSize, ...hiddenSizes, 1] */
  readonly layerSizes: readonly number[];
  /** All weights and biases, laid out as the file header says. Live: writes change the net. */
  readonly params: Float64Array;
  private readonly grads: Float64Array; // same layout as params
  private readonly wOffset: number[] = [];
  private readonly bOffset: number[] = [];
  private readonly adam: Adam;
  private capacity = 0; // rows acts holds
  private acts: Float64Array[] = []; // acts[l]: [capacity, layerSizes[l]]; acts[0] is the input
  // deltas[l]: dLoss/dz_l, [deltaCapacity, layerSizes[l]] for l >= 1 (the input needs none). Only
  // training fills them, so they are sized by training batches, not by predict's chunks.
  private deltaCapacity = 0;
  private deltas: Float64Array[] = [];

  /**
   * Glorot-uniform weights and zero biases (Keras' `Dense` defaults) drawn from `rng`.
   * Throws ConfigError naming the first bad field.
   */
  constructor(options: Partial<MlpOptions> & { inputSize: number }, rng: Rng) {
    this.options = Object.freeze({ ...DEFAULT_MLP_OPTIONS, ...options });
    checkMlpOptions(this.options);
    this.inputSize = this.options.inputSize;
    this.layerSizes = Object.freeze([this.inputSize, ...this.options.hiddenSizes, 1]);
    let size = 0;
    for (let l = 0; l + 1 < this.layerSizes.length; l++) {
      const fanIn = this.layerSizes[l]!;
      const fanOut = this.layerSizes[l + 1]!;
      this.wOffset.push(size);
      size += fanIn * fanOut;
      this.bOffset.push(size);
      size += fanOut;
    }
    this.params = new Float64Array(size);
    this.grads = new Float64Array(size);
    this.adam = new Adam(size, this.options);
    for (let l = 0; l < this.wOffset.length; l++) {
      const fanIn = this.layerSizes[l]!;
      const fanOut = this.layerSizes[l + 1]!;
      const limit = Math.sqrt(6 / (fanIn + fanOut));
      const w = this.wOffset[l]!;
      for (let k = 0; k < fanIn * fanOut; k++) this.params[w + k] = (2 * rng.next() - 1) * limit;
    }
  }

  /** Number of weights and biases. */
  get parameterCount(): number {
    return this.params.length;
  }

  /**
   * Loads weights and Adam state from {@link Mlp.toJSON} into this network (a resume).
   * @throws ConfigError if the checkpoint's shape differs from this network's.
   */
  load(json: MlpJson): void {
    if (json.kind !== 'mlp') throw new ConfigError(`not an MLP checkpoint: kind ${String(json.kind)}`);
    const shape = [json.options.inputSize, ...json.options.hiddenSizes, 1].join(', ');
    if (shape !== this.layerSizes.join(', ') || json.params.length !== this.params.length)
      throw new ConfigError(
        `checkpoint network has layers [${shape}], this one [${this.layerSizes.join(', ')}]`,
        {
          context: { field: 'params' },
        },
      );
    this.params.set(json.params);
    this.adam.load(json.optimizer);
  }

  /** Rebuilds a network from {@link Mlp.toJSON}; throws ConfigError if it does not fit. */
  static fromJSON(json: MlpJson): Mlp {
    if (json.kind !== 'mlp') throw new ConfigError(`not an MLP checkpoint: kind ${String(json.kind)}`);
    const mlp = new Mlp(json.options, createRng('mlp-from-json'));
    if (json.params.length !== mlp.params.length)
      throw new ConfigError(
        `checkpoint has ${json.params.length} parameters, expected ${mlp.params.length}`,
        {
          context: { field: 'params' },
        },
      );
    mlp.params.set(json.params);
    mlp.adam.load(json.optimizer);
    return mlp;
  }

  /**
   * Q of `n` rows, in chunks of at most {@link PREDICT_CHUNK_ROWS}: the layer buffers hold a chunk,
   * not the whole batch (rows are independent, so the values are the same). The synchronous
   * method scores its whole frontier each step; unchunked, the buffers of every layer and their
   * gradients grew to twice the frontier (about 900 bytes per frontier URL, results/memory.md).
   */
  predict(xs: Float32Array, n: number, out: Float32Array = new Float32Array(n)): Float32Array {
    if (xs.length < n * this.inputSize)
      throw new RangeError(`xs holds ${xs.length} values, fewer than ${n} x ${this.inputSize}`);
    for (let from = 0; from < n; from += PREDICT_CHUNK_ROWS) {
      const m = Math.min(PREDICT_CHUNK_ROWS, n - from);
      this.forward(xs.subarray(from * this.inputSize, (from + m) * this.inputSize), m);
      const y = this.acts[this.acts.length - 1]!; // [m, 1]
      for (let r = 0; r < m; r++) out[from + r] = y[r]!;
    }
    return out;
  }

  /** Mean squared error of Q(xs) against `targets` ([n]), without changing anything. */
  loss(xs: Float32Array, targets: Float32Array, n: number): number {
    this.forward(xs, n);
    const y = this.acts[this.acts.length - 1]!;
    let sum = 0;
    for (let r = 0; r < n; r++) sum += (y[r]! - targets[r]!) ** 2;
    return sum / n;
  }

  /**
   * Loss and its gradient with respect to {@link Mlp.params} (unclipped), written into `out`
   * when given. Returns the loss.
   */
  gradient(xs: Float32Array, targets: Float32Array, n: number, out?: Float64Array): number {
    const loss = this.backward(xs, targets, n);
    out?.set(this.grads);
    return loss;
  }

  trainBatch(xs: Float32Array, targets: Float32Array, n: number): number {
    const loss = this.backward(xs, targets, n);
    this.adam.step(this.params, this.grads);
    return loss;
  }

  /** Copies weights only (not the optimiser state), as Keras' `set_weights`. */
  copyFrom(other: QNetwork): void {
    if (!(other instanceof Mlp) || other.layerSizes.join() !== this.layerSizes.join())
      throw new TypeError(`copyFrom needs an Mlp of shape [${this.layerSizes.join(', ')}]`);
    this.params.set(other.params);
  }

  toJSON(): MlpJson {
    return {
      kind: 'mlp',
      options: { ...this.options, hiddenSizes: [...this.options.hiddenSizes] },
      params: Array.from(this.params),
      optimizer: this.adam.toJSON(),
    };
  }

  /** Room for `n` rows in acts. */
  private ensureCapacity(n: number): void {
    if (n <= this.capacity && this.capacity > 0) return;
    const rows = bufferRows(this.capacity, n);
    this.acts = this.layerSizes.map((s) => new Float64Array(rows * s));
    this.capacity = rows;
  }

  /** Room for `n` rows in deltas (none for the input layer). */
  private ensureDeltaCapacity(n: number): void {
    if (n <= this.deltaCapacity && this.deltaCapacity > 0) return;
    const rows = bufferRows(this.deltaCapacity, n);
    this.deltas = this.layerSizes.map((s, l) => new Float64Array(l === 0 ? 0 : rows * s));
    this.deltaCapacity = rows;
  }

  /** Fills acts[0..L] for `n` rows of `xs`. */
  private forward(xs: Float32Array, n: number): void {
    if (xs.length < n * this.inputSize)
      throw new RangeError(`xs holds ${xs.length} values, fewer than ${n} x ${this.inputSize}`);
    this.ensureCapacity(n);
    const input = this.acts[0]!;
    for (let k = 0; k < n * this.inputSize; k++) input[k] = xs[k]!;
    const last = this.wOffset.length - 1;
    for (let l = 0; l <= last; l++) {
      denseForward(
        this.params,
        this.wOffset[l]!,
        this.bOffset[l]!,
        this.acts[l]!,
        this.acts[l + 1]!,
        n,
        this.layerSizes[l]!,
        this.layerSizes[l + 1]!,
        l < last ? this.options.leakySlope : 1,
      );
    }
  }

  /** Forward, then backpropagates the MSE into `grads`. Returns the loss. */
  private backward(xs: Float32Array, targets: Float32Array, n: number): number {
    if (!(n > 0)) throw new RangeError(`a training batch needs n > 0, got ${n}`);
    this.forward(xs, n);
    this.ensureDeltaCapacity(n);
    const L = this.wOffset.length;
    const y = this.acts[L]!;
    const dy = this.deltas[L]!;
    let loss = 0;
    for (let r = 0; r < n; r++) {
      const e = y[r]! - targets[r]!;
      loss += e * e;
      dy[r] = (2 * e) / n; // d mean(e^2) / dy
    }
    const p = this.params;
    const g = this.grads;
    const slope = this.options.leakySlope;
    g.fill(0);
    for (let l = L - 1; l >= 0; l--) {
      const inS = this.layerSizes[l]!;
      const outS = this.layerSizes[l + 1]!;
      const a = this.acts[l]!; // [n, inS]
      const d = this.deltas[l + 1]!; // [n, outS]
      const dPrev = this.deltas[l]!; // [n, inS]
      const wOff = this.wOffset[l]!;
      const bOff = this.bOffset[l]!;
      const hasPrev = l > 0; // no delta needed for the input
      for (let r = 0; r < n; r++) {
        const aBase = r * inS;
        const dBase = r * outS;
        if (hasPrev) for (let i = 0; i < inS; i++) dPrev[aBase + i] = 0;
        for (let j = 0; j < outS; j++) {
          const dj = d[dBase + j]!;
          if (dj === 0) continue;
          g[bOff + j] = g[bOff + j]! + dj;
          const wBase = wOff + j * inS;
          for (let i = 0; i < inS; i++) {
            g[wBase + i] = g[wBase + i]! + dj * a[aBase + i]!;
            if (hasPrev) dPrev[aBase + i] = dPrev[aBase + i]! + dj * p[wBase + i]!;
          }
        }
        // LeakyReLU'(z): the activation is positive exactly when z is (slope > 0); TF's gradient
        // at z = 0 is the slope, and so is this one.
        if (hasPrev)
          for (let i = 0; i < inS; i++)
            if (!(a[aBase + i]! > 0)) dPrev[aBase + i] = dPrev[aBase + i]! * slope;
      }
    }
    return loss / n;
  }
}
