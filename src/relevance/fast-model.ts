/**
 * The fast model, cheap enough to score every outlink at crawl speed: the mean unit word vector
 * of the tokens, the keyword inputs of KwBiLSTM (EK thermometer and LK: density, keyphrase,
 * keyword in URL) and two length features, standardised, into a logistic regression.
 * Per text it costs one tokenisation, one vector lookup per token and one dot product.
 */
import type { Rng } from '../common/index.js';
import type { WordVectors } from '../text/index.js';
import type { FastConfig } from './config.js';
import {
  anchorExamples,
  keywordFeatureSize,
  pageExamples,
  type TopicKeywords,
  type TopicKeywordsJson,
  topicFromJson,
  topicToJson,
  writeKeywordFeatures,
} from './features.js';
import { type LogisticWeights, logisticProbability, trainLogistic } from './logistic.js';
import { readModelFiles, requireArray, writeModelFiles } from './model-files.js';
import type { TrainingProgress } from './progress.js';
import type { AnchorInput, PageInput, RelevanceModel, TextExample } from './types.js';

/** Inputs of {@link FastModel.train}. */
export interface FastTrainInput {
  train: readonly TextExample[];
  trainLabels: ArrayLike<number>;
  trainWeights: Float32Array;
  validation: readonly TextExample[];
  validationLabels: ArrayLike<number>;
  /** Topic keywords; without them only the vector and length features are used. */
  topic: TopicKeywords | undefined;
  vectors: WordVectors;
  config: FastConfig;
  rng: Rng;
  onProgress?: (p: TrainingProgress) => void;
}

/** Mean-vector + keyword-feature logistic regression. */
export class FastModel implements RelevanceModel {
  readonly name = 'fast' as const;
  readonly dim: number;

  constructor(
    private readonly vectors: WordVectors,
    private readonly topic: TopicKeywords | undefined,
    private readonly mean: Float32Array,
    private readonly std: Float32Array,
    private readonly lr: LogisticWeights,
  ) {
    this.dim = FastModel.featureSize(vectors, topic);
  }

  /** Feature count: vector dims + keyword inputs + 2 length features. */
  static featureSize(vectors: WordVectors, topic: TopicKeywords | undefined): number {
    return vectors.dim + (topic === undefined ? 0 : keywordFeatureSize(topic.shortcut1)) + 2;
  }

  /** Raw (unstandardised) features of `examples`, `[rows, featureSize]`. */
  static features(
    examples: readonly TextExample[],
    vectors: WordVectors,
    topic: TopicKeywords | undefined,
  ): Float32Array {
    const d = FastModel.featureSize(vectors, topic);
    const vd = vectors.dim;
    const out = new Float32Array(examples.length * d);
    examples.forEach((e, r) => {
      const base = r * d;
      let found = 0;
      for (const t of e.tokens) {
        const i = vectors.indexOf(t);
        if (i < 0) continue;
        found++;
        for (let k = 0; k < vd; k++)
          out[base + k] = (out[base + k] as number) + (vectors.matrix[i * vd + k] as number);
      }
      let norm = 0;
      for (let k = 0; k < vd; k++) norm += (out[base + k] as number) ** 2;
      norm = Math.sqrt(norm);
      if (norm > 0) for (let k = 0; k < vd; k++) out[base + k] = (out[base + k] as number) / norm;
      let at = base + vd;
      if (topic !== undefined) {
        writeKeywordFeatures(e, topic, out, at);
        at += keywordFeatureSize(topic.shortcut1);
      }
      out[at] = e.tokens.length === 0 ? 0 : found / e.tokens.length;
      out[at + 1] = Math.log1p(e.tokens.length);
    });
    return out;
  }

  /** Trains the model; the standardisation comes from the training rows. */
  static train(input: FastTrainInput): FastModel {
    const x = FastModel.features(input.train, input.vectors, input.topic);
    const vx = FastModel.features(input.validation, input.vectors, input.topic);
    const d = FastModel.featureSize(input.vectors, input.topic);
    const n = input.train.length;
    const mean = new Float32Array(d);
    const std = new Float32Array(d);
    for (let k = 0; k < d; k++) {
      let s = 0;
      for (let r = 0; r < n; r++) s += x[r * d + k] as number;
      const m = s / Math.max(1, n);
      let v = 0;
      for (let r = 0; r < n; r++) v += ((x[r * d + k] as number) - m) ** 2;
      mean[k] = m;
      std[k] = Math.sqrt(v / Math.max(1, n)) || 1;
    }
    standardise(x, mean, std);
    standardise(vx, mean, std);
    const lr = trainLogistic({
      model: 'fast',
      dim: d,
      x,
      y: input.trainLabels,
      sampleWeights: input.trainWeights,
      validationX: vx,
      validationY: input.validationLabels,
      config: input.config,
      rng: input.rng,
      ...(input.onProgress ? { onProgress: input.onProgress } : {}),
    });
    return new FastModel(input.vectors, input.topic, mean, std, lr);
  }

  /** P(relevant) of token examples. */
  scoreExamples(examples: readonly TextExample[]): Float32Array {
    const x = FastModel.features(examples, this.vectors, this.topic);
    standardise(x, this.mean, this.std);
    return Float32Array.from(examples, (_, r) => logisticProbability(this.lr, x, r));
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
      { topic: this.topic === undefined ? null : topicToJson(this.topic), vectorDim: this.vectors.dim },
      { mean: this.mean, std: this.std, weights: this.lr.weights, bias: Float32Array.of(this.lr.bias) },
    );
  }

  dispose(): void {}

  /** Loads a model saved by {@link save}. @throws ConfigError if the folder is damaged */
  static load(dir: string, vectors: WordVectors): FastModel {
    const { manifest, arrays } = readModelFiles(dir);
    const meta = manifest.meta as { topic: TopicKeywordsJson | null };
    const topic = meta.topic === null ? undefined : topicFromJson(meta.topic);
    return new FastModel(
      vectors,
      topic,
      requireArray(arrays, 'mean', dir),
      requireArray(arrays, 'std', dir),
      {
        weights: requireArray(arrays, 'weights', dir),
        bias: requireArray(arrays, 'bias', dir)[0] as number,
      },
    );
  }
}

function standardise(x: Float32Array, mean: Float32Array, std: Float32Array): void {
  const d = mean.length;
  for (let i = 0; i < x.length; i++)
    x[i] = ((x[i] as number) - (mean[i % d] as number)) / (std[i % d] as number);
}
