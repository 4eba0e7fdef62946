/**
 * The two custom layers of the BiLSTM and its seeded initialisation:
 * - MaskedMeanPooling: mean of the BiLSTM outputs over real (non-padding) time steps only
 *   (tfjs's GlobalAveragePooling1D ignores the mask and would average the padding in);
 * - SeededDropout: dropout whose masks come from a tres Rng (tfjs's seeded dropout repeats one
 *   mask for every batch);
 * - initialiseWeights: Glorot-uniform kernels, orthogonal recurrent kernels, zero biases with
 *   the LSTM forget-gate bias at 1 (Keras defaults), all drawn from a tres Rng.
 */
import * as tf from '@tensorflow/tfjs';
import type { Rng } from '../common/index.js';

type Kwargs = Record<string, unknown>;

function one(inputs: tf.Tensor | tf.Tensor[]): tf.Tensor {
  return Array.isArray(inputs) ? (inputs[0] as tf.Tensor) : inputs;
}

/** Inputs [h: [batch, time, units], x: [batch, time, dim]]; output [batch, units]. */
export class MaskedMeanPooling extends tf.layers.Layer {
  static readonly className = 'TresMaskedMeanPooling';

  constructor() {
    super({});
    this.supportsMasking = true;
  }

  override computeOutputShape(inputShape: tf.Shape | tf.Shape[]): tf.Shape {
    const h = (Array.isArray(inputShape[0]) ? inputShape[0] : inputShape) as tf.Shape;
    return [h[0] ?? null, h[2] ?? null];
  }

  override computeMask(
    _inputs: tf.Tensor | tf.Tensor[],
    _mask?: tf.Tensor | tf.Tensor[],
  ): tf.Tensor | tf.Tensor[] {
    // The pooled output has no time axis, so no mask goes further.
    return null as unknown as tf.Tensor;
  }

  override call(inputs: tf.Tensor | tf.Tensor[]): tf.Tensor {
    return tf.tidy(() => {
      const [h, x] = inputs as tf.Tensor[];
      // A time step is real if its word vector is not all zeros (the Masking layer's rule).
      const mask = tf.cast(tf.notEqual(tf.sum(tf.abs(x as tf.Tensor), -1), 0), 'float32'); // [batch, time]
      const summed = tf.sum(tf.mul(h as tf.Tensor, tf.expandDims(mask, -1)), 1); // [batch, units]
      const count = tf.maximum(tf.sum(mask, 1, true), 1); // [batch, 1]
      return tf.div(summed, count);
    });
  }

  override getClassName(): string {
    return MaskedMeanPooling.className;
  }
}

/** Dropout with masks from an Rng; the identity unless called with `training: true`. */
export class SeededDropout extends tf.layers.Layer {
  static readonly className = 'TresSeededDropout';

  constructor(
    private readonly rate: number,
    private readonly rng: Rng,
  ) {
    super({});
    this.supportsMasking = true;
  }

  override computeOutputShape(inputShape: tf.Shape | tf.Shape[]): tf.Shape | tf.Shape[] {
    return inputShape;
  }

  override call(inputs: tf.Tensor | tf.Tensor[], kwargs: Kwargs): tf.Tensor {
    const x = one(inputs);
    if (kwargs.training !== true || this.rate === 0) return tf.clone(x);
    const keep = 1 / (1 - this.rate);
    const mask = new Float32Array(x.size);
    for (let i = 0; i < mask.length; i++) mask[i] = this.rng.next() >= this.rate ? keep : 0;
    return tf.tidy(() => tf.mul(x, tf.tensor(mask, x.shape)));
  }

  override getClassName(): string {
    return SeededDropout.className;
  }
}

/** Rows of a [rows, cols] matrix made orthonormal (Gram-Schmidt on Gaussian rows), rows <= cols. */
function orthogonal(rows: number, cols: number, rng: Rng): Float32Array {
  const m = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    for (;;) {
      for (let c = 0; c < cols; c++) m[r * cols + c] = rng.normal();
      for (let p = 0; p < r; p++) {
        let dot = 0;
        for (let c = 0; c < cols; c++) dot += (m[r * cols + c] as number) * (m[p * cols + c] as number);
        for (let c = 0; c < cols; c++)
          m[r * cols + c] = (m[r * cols + c] as number) - dot * (m[p * cols + c] as number);
      }
      let norm = 0;
      for (let c = 0; c < cols; c++) norm += (m[r * cols + c] as number) ** 2;
      norm = Math.sqrt(norm);
      if (norm < 1e-6) continue;
      for (let c = 0; c < cols; c++) m[r * cols + c] = (m[r * cols + c] as number) / norm;
      break;
    }
  }
  return Float32Array.from(m);
}

/** Sets every weight of `model` from `rng` (see the file comment). */
export function initialiseWeights(model: tf.LayersModel, rng: Rng): void {
  const values = model.weights.map((w) => {
    const shape = w.shape as number[];
    const size = shape.reduce((a, b) => a * b, 1);
    const name = w.originalName;
    let data: Float32Array;
    if (name.endsWith('recurrent_kernel')) {
      data = orthogonal(shape[0] as number, shape[1] as number, rng);
    } else if (name.endsWith('kernel')) {
      const limit = Math.sqrt(6 / ((shape[0] as number) + (shape[1] as number)));
      data = Float32Array.from({ length: size }, () => (rng.next() * 2 - 1) * limit);
    } else {
      data = new Float32Array(size);
      // LSTM bias layout is [input, forget, cell, output] gates of `units` each.
      if (/lstm/i.test(name)) data.fill(1, size / 4, size / 2);
    }
    return tf.tensor(data, shape);
  });
  model.setWeights(values);
  for (const v of values) v.dispose();
}
