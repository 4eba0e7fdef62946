/**
 * The BiLSTM networks' forward pass in plain TypeScript, for scoring. TensorFlow.js runs an LSTM
 * as about twenty small kernels per time step and direction, ~3,000 kernel launches for an
 * 80-word page: one page per call cost 60-85 ms on two busy cores (7-10 ms per page in batches
 * of 64), so the crawl loop, which scores one page per step, managed 16 pages/s. Here a page is
 * about 2 million multiply-adds, 4-6 ms alone or in a batch, and scores do not depend on the
 * batch. Training stays on TensorFlow.js; the weights are read from the trained network, and a
 * test checks both passes agree (to 2e-7 on a trained model).
 *
 * Mirrors tfjs-layers exactly: LSTM gates in the order input, forget, cell, output with the
 * hard sigmoid (0.2 x + 0.5 clipped to [0, 1], the tfjs and Keras 2 default) as recurrent
 * activation and tanh elsewhere; masked (all-zero) steps skipped; the backward direction reads
 * the real steps last to first from a zero state; masked mean pooling; dense layers.
 */
import type * as tf from '@tensorflow/tfjs';
import type { WordVectors } from '../text/index.js';

/** One LSTM direction: kernel [dim, 4 units], recurrent kernel [units, 4 units], bias [4 units]. */
interface LstmWeights {
  kernel: Float32Array;
  recurrent: Float32Array;
  bias: Float32Array;
}

/** A dense layer: kernel [inputs, outputs], bias [outputs]. */
interface DenseWeights {
  kernel: Float32Array;
  bias: Float32Array;
  inputs: number;
  outputs: number;
}

/** Every weight of a BiLSTM network, copied out of TensorFlow.js. */
export interface BiLstmWeights {
  dim: number;
  units: number;
  forward: LstmWeights;
  backward: LstmWeights;
  /** After mean pooling (ReLU). */
  pooledDense: DenseWeights;
  /** After concatenating the keyword inputs (KwBiLSTM) or straight after the first (ReLU). */
  keywordDense: DenseWeights;
  /** Two-way softmax. */
  output: DenseWeights;
}

function dense(layer: tf.layers.Layer): DenseWeights {
  const [kernel, bias] = layer.getWeights() as [tf.Tensor, tf.Tensor];
  return {
    kernel: kernel.dataSync() as Float32Array,
    bias: bias.dataSync() as Float32Array,
    inputs: kernel.shape[0] as number,
    outputs: kernel.shape[1] as number,
  };
}

/**
 * Copies the weights of a network built by `bilstm-model.ts` (one Bidirectional LSTM, then
 * three dense layers).
 * @throws RangeError if the network has another shape
 */
export function readBiLstmWeights(network: tf.LayersModel): BiLstmWeights {
  const bi = network.layers.find((l) => l.getClassName() === 'Bidirectional');
  const denses = network.layers.filter((l) => l.getClassName() === 'Dense');
  if (bi === undefined || denses.length !== 3)
    throw new RangeError('not a tres BiLSTM network: want one Bidirectional and three Dense layers');
  // Bidirectional.getWeights(): the forward LSTM's [kernel, recurrent, bias], then the backward's.
  const w = bi.getWeights().map((t) => t.dataSync() as Float32Array);
  const kernelShape = bi.getWeights()[0]?.shape as number[];
  const [pooledDense, keywordDense, output] = denses.map(dense) as [DenseWeights, DenseWeights, DenseWeights];
  return {
    dim: kernelShape[0] as number,
    units: (kernelShape[1] as number) / 4,
    forward: { kernel: w[0] as Float32Array, recurrent: w[1] as Float32Array, bias: w[2] as Float32Array },
    backward: { kernel: w[3] as Float32Array, recurrent: w[4] as Float32Array, bias: w[5] as Float32Array },
    pooledDense,
    keywordDense,
    output,
  };
}

const hardSigmoid = (x: number) => Math.min(1, Math.max(0, 0.2 * x + 0.5));

/** x W + b of one word for one direction: [4 units]. */
function project(lstm: LstmWeights, x: Float32Array): Float64Array {
  const g4 = lstm.bias.length;
  const z = Float64Array.from(lstm.bias);
  for (let k = 0; k < x.length; k++) {
    const xk = x[k] as number;
    if (xk === 0) continue;
    const base = k * g4;
    for (let g = 0; g < g4; g++) z[g] = (z[g] as number) + xk * (lstm.kernel[base + g] as number);
  }
  return z;
}

/** Adds the LSTM outputs h_t over the steps (their input projections, in the given order) into `sum`. */
function lstmSum(
  lstm: LstmWeights,
  units: number,
  projected: readonly Float64Array[],
  order: 1 | -1,
  sum: Float64Array,
): void {
  const g4 = 4 * units;
  const h = new Float64Array(units);
  const c = new Float64Array(units);
  const z = new Float64Array(g4);
  const n = projected.length;
  for (let s = 0; s < n; s++) {
    z.set(projected[order === 1 ? s : n - 1 - s] as Float64Array);
    for (let j = 0; j < units; j++) {
      const hj = h[j] as number;
      if (hj === 0) continue;
      const base = j * g4;
      for (let g = 0; g < g4; g++) z[g] = (z[g] as number) + hj * (lstm.recurrent[base + g] as number);
    }
    for (let u = 0; u < units; u++) {
      const i = hardSigmoid(z[u] as number);
      const f = hardSigmoid(z[units + u] as number);
      const cell = f * (c[u] as number) + i * Math.tanh(z[2 * units + u] as number);
      const o = hardSigmoid(z[3 * units + u] as number);
      c[u] = cell;
      h[u] = o * Math.tanh(cell);
      sum[u] = (sum[u] as number) + (h[u] as number);
    }
  }
}

function applyDense(layer: DenseWeights, x: Float64Array, isRelu: boolean): Float64Array {
  const out = Float64Array.from(layer.bias);
  for (let i = 0; i < layer.inputs; i++) {
    const xi = x[i] as number;
    if (xi === 0) continue;
    const base = i * layer.outputs;
    for (let o = 0; o < layer.outputs; o++)
      out[o] = (out[o] as number) + xi * (layer.kernel[base + o] as number);
  }
  if (isRelu) for (let o = 0; o < out.length; o++) out[o] = Math.max(0, out[o] as number);
  return out;
}

/** Words whose input projections are kept; the cache is emptied when full (~17 MB at 24 units). */
const PROJECTION_CACHE_WORDS = 10_000;

/**
 * A trained BiLSTM network's forward pass. The input projection x W + b of each word (four
 * fifths of the work) is cached per word, as pages share their words; a cached projection is
 * the same number as a fresh one, so scores do not depend on what was scored before.
 */
export class PlainBiLstm {
  private readonly cache = new Map<number, [Float64Array, Float64Array]>();

  constructor(readonly weights: BiLstmWeights) {}

  private projections(row: number, x: Float32Array): [Float64Array, Float64Array] {
    let p = this.cache.get(row);
    if (p === undefined) {
      if (this.cache.size >= PROJECTION_CACHE_WORDS) this.cache.clear();
      p = [project(this.weights.forward, x), project(this.weights.backward, x)];
      this.cache.set(row, p);
    }
    return p;
  }

  /**
   * P(relevant) of one text.
   * @param rows word-vector rows of its first `maxLen` words that have a vector
   * @param keywords the keyword inputs (EK + LK) for a KwBiLSTM, undefined for the vanilla one
   */
  score(vectors: WordVectors, rows: Int32Array, keywords: Float32Array | undefined): number {
    const w = this.weights;
    const forward: Float64Array[] = [];
    const backward: Float64Array[] = [];
    for (const r of rows) {
      // The Masking layer skips all-zero vectors: such a word is not a step at all.
      if (!((vectors.norms[r] as number) > 0)) continue;
      const [f, b] = this.projections(r, vectors.row(r));
      forward.push(f);
      backward.push(b);
    }
    const pooled = new Float64Array(2 * w.units); // [forward units, backward units]
    lstmSum(w.forward, w.units, forward, 1, pooled.subarray(0, w.units));
    lstmSum(w.backward, w.units, backward, -1, pooled.subarray(w.units));
    const count = Math.max(1, forward.length);
    for (let i = 0; i < pooled.length; i++) pooled[i] = (pooled[i] as number) / count;
    let x = applyDense(w.pooledDense, pooled, true); // dropout is the identity when scoring
    if (keywords !== undefined) {
      const joined = new Float64Array(x.length + keywords.length);
      joined.set(x);
      joined.set(keywords, x.length);
      x = joined;
    }
    x = applyDense(w.keywordDense, x, true);
    const [z0, z1] = applyDense(w.output, x, false) as unknown as [number, number];
    const m = Math.max(z0, z1);
    const e0 = Math.exp(z0 - m);
    const e1 = Math.exp(z1 - m);
    return e1 / (e0 + e1);
  }
}
