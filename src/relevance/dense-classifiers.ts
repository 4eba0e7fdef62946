/**
 * Small binary classifiers on dense feature vectors (a few hundred TF-IDF weights), trained in
 * memory in well under a second on a few thousand examples: the classifier pool of RLwCS
 * (Partalas, Paliouras and Vlahavas, ECAI 2008, section 3), which used WEKA's
 * MultilayerPerceptron, SMO, NaiveBayes -K and REPTree. This file holds the shared contract,
 * the linear SVM and the kernel naive Bayes; the tree and the network have their own files.
 */
import type { Rng } from '../common/index.js';
import { fitPlatt } from './platt.js';

/** A trained binary classifier: P(relevant) of one dense example. */
export interface DenseClassifier {
  readonly name: string;
  /** P(class 1 | x) in [0, 1]; `x` has the length the classifier was trained on. */
  probability(x: Float32Array): number;
}

/** Examples and 0/1 labels, as the trainers take them. */
export interface DenseDataset {
  /** [examples][features] */
  xs: readonly Float32Array[];
  /** 0/1 per example. */
  labels: Uint8Array;
}

/** Settings of {@link trainLinearSvm}. */
export interface LinearSvmOptions {
  /** Soft-margin cost C (WEKA SMO's -C). @default 1 */
  c?: number;
  /** Passes over the data of the Pegasos solver. @default 20 */
  epochs?: number;
}

/**
 * Linear SVM (WEKA SMO with a polynomial kernel of degree 1 is a linear SVM), solved by Pegasos
 * (Shalev-Shwartz et al. 2007) with lambda = 1 / (C n), then Platt scaling of its decision
 * values to a probability, as SMO's -M option fits a logistic model to its outputs.
 */
export function trainLinearSvm(
  data: DenseDataset,
  rng: Rng,
  options: LinearSvmOptions = {},
): DenseClassifier {
  const c = options.c ?? 1;
  const epochs = options.epochs ?? 20;
  const n = data.xs.length;
  const d = data.xs[0]?.length ?? 0;
  const w = new Float64Array(d);
  let bias = 0;
  const lambda = 1 / (c * Math.max(1, n));
  const order = Array.from({ length: n }, (_, i) => i);
  let t = 0;
  for (let epoch = 0; epoch < epochs; epoch++) {
    rng.shuffle(order);
    for (const i of order) {
      t++;
      const x = data.xs[i] as Float32Array;
      const y = data.labels[i] === 1 ? 1 : -1;
      const eta = 1 / (lambda * t);
      let margin = bias;
      for (let j = 0; j < d; j++) margin += (w[j] as number) * (x[j] as number);
      const scale = 1 - eta * lambda;
      for (let j = 0; j < d; j++) w[j] = (w[j] as number) * scale;
      if (y * margin < 1) {
        // The bias is not regularised; a smaller step keeps it from oscillating.
        for (let j = 0; j < d; j++) w[j] = (w[j] as number) + eta * y * (x[j] as number);
        bias += Math.min(eta, 1) * y * 0.1;
      }
    }
  }
  const decision = (x: Float32Array): number => {
    let f = bias;
    for (let j = 0; j < d; j++) f += (w[j] as number) * (x[j] as number);
    return f;
  };
  const platt = fitPlatt(Float64Array.from(data.xs, decision), data.labels);
  return {
    name: 'svm',
    probability: (x) => 1 / (1 + Math.exp(platt.a * decision(x) + platt.b)),
  };
}

/** Settings of {@link trainKernelNaiveBayes}. */
export interface KernelNaiveBayesOptions {
  /** Bins of [0, 1] on which each class-conditional density is tabulated. @default 32 */
  bins?: number;
}

/**
 * Naive Bayes with a Gaussian kernel density estimate per class and feature (WEKA NaiveBayes -K,
 * John and Langley 1995), bandwidth 1/sqrt(n_class) as theirs. The density is tabulated at the
 * centres of `bins` bins of [0, 1] (features are cosine-normalised TF-IDF weights, so in [0, 1]),
 * which makes a prediction one table look-up per feature instead of a sum over the training set.
 */
export function trainKernelNaiveBayes(
  data: DenseDataset,
  options: KernelNaiveBayesOptions = {},
): DenseClassifier {
  const bins = options.bins ?? 32;
  const d = data.xs[0]?.length ?? 0;
  const binOf = (v: number): number => Math.min(bins - 1, Math.max(0, Math.floor(v * bins)));
  // logDensity[(cls * d + j) * bins + b]
  const logDensity = new Float64Array(2 * d * bins);
  let positives = 0;
  for (const label of data.labels) if (label === 1) positives++;
  const classCount = [data.labels.length - positives, positives];
  const hist = new Float64Array(bins);
  for (let cls = 0; cls < 2; cls++) {
    const n = Math.max(1, classCount[cls] as number);
    const sigma = Math.max(1 / Math.sqrt(n), 1 / bins);
    for (let j = 0; j < d; j++) {
      hist.fill(0);
      data.xs.forEach((x, i) => {
        if ((data.labels[i] === 1 ? 1 : 0) !== cls) return;
        const b = binOf(x[j] as number);
        hist[b] = (hist[b] as number) + 1;
      });
      for (let b = 0; b < bins; b++) {
        const at = (b + 0.5) / bins;
        let density = 0;
        for (let k = 0; k < bins; k++) {
          const count = hist[k] as number;
          if (count === 0) continue;
          const z = (at - (k + 0.5) / bins) / sigma;
          density += count * Math.exp(-0.5 * z * z);
        }
        // Normalised Gaussian kernel, plus a floor so an unseen value is unlikely, not impossible.
        density = density / (n * sigma * Math.sqrt(2 * Math.PI)) + 1e-6;
        logDensity[(cls * d + j) * bins + b] = Math.log(density);
      }
    }
  }
  const total = (classCount[0] as number) + (classCount[1] as number);
  const logPrior = [0, 1].map((cls) => Math.log(((classCount[cls] as number) + 1) / (total + 2)));
  return {
    name: 'nb',
    probability: (x) => {
      let diff = (logPrior[1] as number) - (logPrior[0] as number);
      for (let j = 0; j < d; j++) {
        const b = binOf(x[j] as number);
        diff += (logDensity[(d + j) * bins + b] as number) - (logDensity[j * bins + b] as number);
      }
      return 1 / (1 + Math.exp(-diff));
    },
  };
}
