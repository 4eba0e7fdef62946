/**
 * Linear SVM on TF-IDF vectors: the page classifier of the ACHE crawler, the "ACHE's SVM" row of
 * Table 1. Trained by seeded SGD on the (class-weighted) hinge loss with L2 regularisation,
 * step size eta0 / (1 + lambda eta0 t) (Bottou), early stopping on the validation hinge loss;
 * probabilities by Platt scaling of the decision values.
 */
import type { Rng } from '../common/index.js';
import type { SvmConfig, VocabularyConfig } from './config.js';
import { anchorExamples, pageExamples } from './features.js';
import { readModelFiles, requireArray, writeModelFiles } from './model-files.js';
import { fitPlatt, type PlattScaling, plattProbability } from './platt.js';
import type { TrainingProgress } from './progress.js';
import { EARLY_STOPPING_MIN_DELTA } from './split.js';
import type { AnchorInput, PageInput, RelevanceModel, TextExample } from './types.js';
import { type SparseVector, sparseDot, tfidf, Vocabulary } from './vocabulary.js';

/** Inputs of {@link LinearSvmModel.train}. */
export interface SvmTrainInput {
  train: readonly TextExample[];
  trainLabels: ArrayLike<number>;
  trainWeights: Float32Array;
  validation: readonly TextExample[];
  validationLabels: ArrayLike<number>;
  config: SvmConfig;
  vocabulary: VocabularyConfig;
  rng: Rng;
  onProgress?: (p: TrainingProgress) => void;
}

function hingeLoss(
  xs: readonly SparseVector[],
  labels: ArrayLike<number>,
  w: Float32Array,
  b: number,
): number {
  let s = 0;
  xs.forEach((x, i) => {
    const y = labels[i] === 1 ? 1 : -1;
    s += Math.max(0, 1 - y * (sparseDot(x, w) + b));
  });
  return xs.length === 0 ? 0 : s / xs.length;
}

/** Linear SVM relevance model. */
export class LinearSvmModel implements RelevanceModel {
  readonly name = 'svm' as const;
  private readonly idfValues: Float32Array;
  private readonly bias: number;
  private readonly platt: PlattScaling;

  constructor(
    private readonly vocab: Vocabulary,
    private readonly weights: Float32Array,
    bias: number,
    platt: PlattScaling,
  ) {
    this.idfValues = vocab.idf();
    // Rounded to Float32 now, as they are saved, so a loaded model scores bit for bit the same.
    this.bias = Math.fround(bias);
    this.platt = { a: Math.fround(platt.a), b: Math.fround(platt.b) };
  }

  /** Trains on the TF-IDF vectors of `train`, stopping early on `validation`. */
  static train(input: SvmTrainInput): LinearSvmModel {
    const { config } = input;
    const vocab = Vocabulary.build(
      input.train.map((e) => e.tokens),
      input.vocabulary,
    );
    const idf = vocab.idf();
    const xs = input.train.map((e) => tfidf(vocab, idf, e.tokens));
    const vxs = input.validation.map((e) => tfidf(vocab, idf, e.tokens));
    // w = scale * v, so the L2 shrink of every step costs O(1).
    const v = new Float32Array(vocab.size);
    let scale = 1;
    let b = 0;
    let t = 0;
    let best = { loss: Number.POSITIVE_INFINITY, w: new Float32Array(vocab.size), b: 0 };
    let sinceBest = 0;
    const order = Array.from({ length: xs.length }, (_, i) => i);
    for (let epoch = 1; epoch <= config.maxEpochs; epoch++) {
      input.rng.shuffle(order);
      for (const i of order) {
        t++;
        const eta = config.eta0 / (1 + config.lambda * config.eta0 * t);
        scale *= 1 - eta * config.lambda;
        const x = xs[i] as SparseVector;
        const y = input.trainLabels[i] === 1 ? 1 : -1;
        const margin = y * (scale * sparseDot(x, v) + b);
        if (margin < 1) {
          const step = (eta * (input.trainWeights[i] as number) * y) / scale;
          for (let k = 0; k < x.indices.length; k++) {
            const j = x.indices[k] as number;
            v[j] = (v[j] as number) + step * (x.values[k] as number);
          }
          // The bias is not regularised and moves more slowly (its feature is a constant 1).
          b += 0.1 * eta * (input.trainWeights[i] as number) * y;
        }
        if (scale < 1e-6) {
          for (let j = 0; j < v.length; j++) v[j] = (v[j] as number) * scale;
          scale = 1;
        }
      }
      const w = Float32Array.from(v, (x) => x * scale);
      const trainLoss = hingeLoss(xs, input.trainLabels, w, b);
      const valLoss = vxs.length > 0 ? hingeLoss(vxs, input.validationLabels, w, b) : trainLoss;
      const isBest = valLoss < best.loss - EARLY_STOPPING_MIN_DELTA;
      if (isBest) {
        best = { loss: valLoss, w, b };
        sinceBest = 0;
      } else sinceBest++;
      input.onProgress?.({ model: 'svm', epoch, maxEpochs: config.maxEpochs, trainLoss, valLoss, isBest });
      if (sinceBest > config.patience) break;
    }
    // Platt scaling on all decision values (train and validation): the validation split alone
    // holds too few relevant pages for a stable fit.
    const f = [...xs, ...vxs].map((x) => sparseDot(x, best.w) + best.b);
    const labels = [...Array.from(input.trainLabels), ...Array.from(input.validationLabels)];
    return new LinearSvmModel(vocab, best.w, best.b, fitPlatt(f, labels));
  }

  /** Decision value w.x + b of token examples. */
  decision(examples: readonly TextExample[]): Float32Array {
    return Float32Array.from(
      examples,
      (e) => sparseDot(tfidf(this.vocab, this.idfValues, e.tokens), this.weights) + this.bias,
    );
  }

  /** P(relevant) of token examples. */
  scoreExamples(examples: readonly TextExample[]): Float32Array {
    return this.decision(examples).map((f) => plattProbability(this.platt, f));
  }

  async scorePages(pages: readonly PageInput[]): Promise<Float32Array> {
    return this.scoreExamples(pageExamples(pages));
  }

  async scoreAnchors(anchors: readonly AnchorInput[]): Promise<Float32Array> {
    return this.scoreExamples(anchorExamples(anchors));
  }

  async save(dir: string): Promise<void> {
    writeModelFiles(
      dir,
      this.name,
      { words: this.vocab.words, documents: this.vocab.documents },
      {
        docFreq: this.vocab.docFreq,
        weights: this.weights,
        bias: Float32Array.of(this.bias),
        platt: Float32Array.of(this.platt.a, this.platt.b),
      },
    );
  }

  dispose(): void {}

  /** Loads a model saved by {@link save}. @throws ConfigError if the folder is damaged */
  static load(dir: string): LinearSvmModel {
    const { manifest, arrays } = readModelFiles(dir);
    const meta = manifest.meta as { words: string[]; documents: number };
    const vocab = new Vocabulary(meta.words, requireArray(arrays, 'docFreq', dir), meta.documents);
    const platt = requireArray(arrays, 'platt', dir);
    return new LinearSvmModel(
      vocab,
      requireArray(arrays, 'weights', dir),
      requireArray(arrays, 'bias', dir)[0] as number,
      {
        a: platt[0] as number,
        b: platt[1] as number,
      },
    );
  }
}
