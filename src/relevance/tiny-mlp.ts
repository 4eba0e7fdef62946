/**
 * A one-hidden-layer perceptron for binary classification, after WEKA's MultilayerPerceptron as
 * RLwCS used it (Partalas et al. 2008, section 3: "16 hidden nodes and learning rate 0.4"):
 * sigmoid units, weights drawn uniformly from [-0.05, 0.05], stochastic back-propagation of the
 * squared error with momentum 0.2 (WEKA's default). WEKA trains 500 epochs; we train fewer
 * (`epochs`) because the crawl retrains it online, and skip zero inputs in both passes, as TF-IDF
 * vectors are mostly zeros.
 */
import type { Rng } from '../common/index.js';
import type { DenseClassifier, DenseDataset } from './dense-classifiers.js';

/** Settings of {@link trainTinyMlp}. */
export interface TinyMlpOptions {
  /** Hidden sigmoid units. @default 16 */
  hidden?: number;
  /** Step size of back-propagation. @default 0.4 */
  learningRate?: number;
  /** Momentum of the weight updates. @default 0.2 */
  momentum?: number;
  /** Passes over the examples, in a fresh random order each. @default 30 */
  epochs?: number;
}

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/** Trains the network; initial weights and example order come from `rng`. */
export function trainTinyMlp(data: DenseDataset, rng: Rng, options: TinyMlpOptions = {}): DenseClassifier {
  const h = options.hidden ?? 16;
  const lr = options.learningRate ?? 0.4;
  const momentum = options.momentum ?? 0.2;
  const epochs = options.epochs ?? 30;
  const d = data.xs[0]?.length ?? 0;
  const init = () => (rng.next() - 0.5) * 0.1;
  // w1[j * h + u]: input j -> hidden u; b1[u]; w2[u]; b2.
  const w1 = Float64Array.from({ length: d * h }, init);
  const b1 = Float64Array.from({ length: h }, init);
  const w2 = Float64Array.from({ length: h }, init);
  let b2 = init();
  const dw1 = new Float64Array(d * h);
  const db1 = new Float64Array(h);
  const dw2 = new Float64Array(h);
  let db2 = 0;
  const hidden = new Float64Array(h);
  const nonzeros = data.xs.map((x) => {
    const idx: number[] = [];
    x.forEach((v, j) => {
      if (v !== 0) idx.push(j);
    });
    return Int32Array.from(idx);
  });

  const forward = (x: Float32Array, nz: Int32Array): number => {
    for (let u = 0; u < h; u++) {
      let z = b1[u] as number;
      for (const j of nz) z += (w1[j * h + u] as number) * (x[j] as number);
      hidden[u] = sigmoid(z);
    }
    let z = b2;
    for (let u = 0; u < h; u++) z += (w2[u] as number) * (hidden[u] as number);
    return sigmoid(z);
  };

  const order = Array.from({ length: data.xs.length }, (_, i) => i);
  for (let epoch = 0; epoch < epochs; epoch++) {
    rng.shuffle(order);
    for (const i of order) {
      const x = data.xs[i] as Float32Array;
      const nz = nonzeros[i] as Int32Array;
      const out = forward(x, nz);
      // Squared error E = (y - out)^2 / 2; delta = dE/dz at the output.
      const deltaOut = (out - (data.labels[i] === 1 ? 1 : 0)) * out * (1 - out);
      for (let u = 0; u < h; u++) {
        const hu = hidden[u] as number;
        const deltaHidden = deltaOut * (w2[u] as number) * hu * (1 - hu);
        dw2[u] = momentum * (dw2[u] as number) - lr * deltaOut * hu;
        w2[u] = (w2[u] as number) + (dw2[u] as number);
        db1[u] = momentum * (db1[u] as number) - lr * deltaHidden;
        b1[u] = (b1[u] as number) + (db1[u] as number);
        // Momentum of a weight whose input is zero here is left as it was (sparse update).
        for (const j of nz) {
          const k = j * h + u;
          dw1[k] = momentum * (dw1[k] as number) - lr * deltaHidden * (x[j] as number);
          w1[k] = (w1[k] as number) + (dw1[k] as number);
        }
      }
      db2 = momentum * db2 - lr * deltaOut;
      b2 += db2;
    }
  }
  return {
    name: 'nn',
    probability: (x) => {
      const nz: number[] = [];
      for (let j = 0; j < d; j++) if (x[j] !== 0) nz.push(j);
      return forward(x, Int32Array.from(nz));
    },
  };
}
