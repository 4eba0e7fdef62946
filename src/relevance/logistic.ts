/**
 * Logistic regression on dense features, trained by seeded mini-batch Adam on the (weighted)
 * cross-entropy with an L2 penalty, early stopping on the validation log loss (best weights kept).
 */
import type { Rng } from '../common/index.js';
import type { FastConfig } from './config.js';
import { logLoss } from './metrics.js';
import type { TrainingProgress } from './progress.js';
import { EARLY_STOPPING_MIN_DELTA } from './split.js';
import type { ModelName } from './types.js';

/** Inputs of {@link trainLogistic}. Matrices are row-major `[rows, dim]`. */
export interface LogisticTrainInput {
  model: ModelName;
  dim: number;
  x: Float32Array;
  y: ArrayLike<number>;
  sampleWeights: Float32Array;
  validationX: Float32Array;
  validationY: ArrayLike<number>;
  config: FastConfig;
  rng: Rng;
  onProgress?: (p: TrainingProgress) => void;
}

/** Weights and bias of a logistic regression, Float32 (as saved). */
export interface LogisticWeights {
  weights: Float32Array;
  bias: number;
}

/** P(y = 1) of row `row` of `x`. */
export function logisticProbability(m: LogisticWeights, x: Float32Array, row: number): number {
  const d = m.weights.length;
  let z = m.bias;
  for (let k = 0; k < d; k++) z += (m.weights[k] as number) * (x[row * d + k] as number);
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

function probabilities(m: LogisticWeights, x: Float32Array): Float32Array {
  const rows = m.weights.length === 0 ? 0 : x.length / m.weights.length;
  return Float32Array.from({ length: rows }, (_, r) => logisticProbability(m, x, r));
}

/** Trains a logistic regression. */
export function trainLogistic(input: LogisticTrainInput): LogisticWeights {
  const { dim: d, config } = input;
  const n = input.y.length;
  const w = new Float64Array(d);
  let b = 0;
  // Adam moments of [w..., b].
  const m1 = new Float64Array(d + 1);
  const m2 = new Float64Array(d + 1);
  const grad = new Float64Array(d + 1);
  const beta1 = 0.9;
  const beta2 = 0.999;
  let step = 0;
  const order = Array.from({ length: n }, (_, i) => i);
  let best: LogisticWeights = { weights: new Float32Array(d), bias: 0 };
  let bestLoss = Number.POSITIVE_INFINITY;
  let sinceBest = 0;
  for (let epoch = 1; epoch <= config.maxEpochs; epoch++) {
    input.rng.shuffle(order);
    for (let start = 0; start < n; start += config.batchSize) {
      const batch = order.slice(start, start + config.batchSize);
      grad.fill(0);
      for (const i of batch) {
        let z = b;
        for (let k = 0; k < d; k++) z += (w[k] as number) * (input.x[i * d + k] as number);
        const p = 1 / (1 + Math.exp(-z));
        const err = (input.sampleWeights[i] as number) * (p - (input.y[i] === 1 ? 1 : 0));
        for (let k = 0; k < d; k++) grad[k] = (grad[k] as number) + err * (input.x[i * d + k] as number);
        grad[d] = (grad[d] as number) + err;
      }
      step++;
      const c1 = 1 - beta1 ** step;
      const c2 = 1 - beta2 ** step;
      for (let k = 0; k <= d; k++) {
        const g = (grad[k] as number) / batch.length + (k < d ? config.l2 * (w[k] as number) : 0);
        m1[k] = beta1 * (m1[k] as number) + (1 - beta1) * g;
        m2[k] = beta2 * (m2[k] as number) + (1 - beta2) * g * g;
        const delta =
          (config.learningRate * ((m1[k] as number) / c1)) / (Math.sqrt((m2[k] as number) / c2) + 1e-8);
        if (k < d) w[k] = (w[k] as number) - delta;
        else b -= delta;
      }
    }
    const current: LogisticWeights = { weights: Float32Array.from(w), bias: Math.fround(b) };
    const trainLoss = logLoss(input.y, probabilities(current, input.x));
    const valLoss =
      input.validationY.length > 0
        ? logLoss(input.validationY, probabilities(current, input.validationX))
        : trainLoss;
    const isBest = valLoss < bestLoss - EARLY_STOPPING_MIN_DELTA;
    if (isBest) {
      best = current;
      bestLoss = valLoss;
      sinceBest = 0;
    } else sinceBest++;
    input.onProgress?.({
      model: input.model,
      epoch,
      maxEpochs: config.maxEpochs,
      trainLoss,
      valLoss,
      isBest,
    });
    if (sinceBest > config.patience) break;
  }
  return best;
}
