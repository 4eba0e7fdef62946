/**
 * KwBiLSTM (arXiv section 3.4, Figure 1) and its ablation, the vanilla BiLSTM, with TensorFlow.js.
 * Text input: the first `maxLen` tokens that have a word vector, as a [time, 100] matrix, zero
 * padded; Masking -> BiLSTM (return sequences) -> masked mean pooling -> dense (ReLU) -> dropout.
 * KwBiLSTM then concatenates the keyword inputs (EK thermometer + LK), both add a small dense
 * layer and a two-way softmax. Trained by seeded mini-batch Adam on the cross-entropy with early
 * stopping on a validation split (best weights kept). Scoring runs the same forward pass in plain
 * TypeScript (`bilstm-inference.ts`), many times faster than TensorFlow.js for one page.
 */
import * as tf from '@tensorflow/tfjs';
import type { Rng } from '../common/index.js';
import { createRng } from '../common/index.js';
import type { WordVectors } from '../text/index.js';
import { PlainBiLstm, readBiLstmWeights } from './bilstm-inference.js';
import { initialiseWeights, MaskedMeanPooling, SeededDropout } from './bilstm-layers.js';
import type { BiLstmConfig } from './config.js';
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
import { logLoss } from './metrics.js';
import { readModelFiles, requireArray, writeModelFiles } from './model-files.js';
import type { TrainingProgress } from './progress.js';
import { EARLY_STOPPING_MIN_DELTA } from './split.js';
import { ensureTfBackend } from './tf-backend.js';
import type { AnchorInput, PageInput, RelevanceModel, TextExample } from './types.js';

/** Which of the two networks. */
export type BiLstmKind = 'kwbilstm' | 'bilstm';

/** Inputs of {@link BiLstmModel.train}. */
export interface BiLstmTrainInput {
  kind: BiLstmKind;
  train: readonly TextExample[];
  trainLabels: ArrayLike<number>;
  trainWeights: Float32Array;
  validation: readonly TextExample[];
  validationLabels: ArrayLike<number>;
  /** Required for 'kwbilstm', ignored for 'bilstm'. */
  topic: TopicKeywords | undefined;
  vectors: WordVectors;
  config: BiLstmConfig;
  rng: Rng;
  onProgress?: (p: TrainingProgress) => void;
}

const ZERO_INIT = { kernelInitializer: 'zeros', biasInitializer: 'zeros' } as const;

function buildNetwork(
  kind: BiLstmKind,
  c: BiLstmConfig,
  dim: number,
  kwSize: number,
  rng: Rng,
): tf.LayersModel {
  const seq = tf.input({ shape: [null, dim] }); // [batch, time, dim]
  const masked = tf.layers.masking({ maskValue: 0 }).apply(seq) as tf.SymbolicTensor;
  // Initialisers are placeholders: initialiseWeights draws every weight from the Rng.
  const lstm = tf.layers.lstm({
    units: c.units,
    returnSequences: true,
    ...ZERO_INIT,
    recurrentInitializer: 'zeros',
  });
  const h = tf.layers.bidirectional({ layer: lstm, mergeMode: 'concat' }).apply(masked) as tf.SymbolicTensor;
  const pooled = new MaskedMeanPooling().apply([h, seq]) as tf.SymbolicTensor; // [batch, 2 units]
  let x = tf.layers
    .dense({ units: c.denseUnits, activation: 'relu', ...ZERO_INIT })
    .apply(pooled) as tf.SymbolicTensor;
  x = new SeededDropout(c.dropout, rng.fork('dropout')).apply(x) as tf.SymbolicTensor;
  const inputs = [seq];
  if (kind === 'kwbilstm') {
    const kw = tf.input({ shape: [kwSize] }); // [batch, EK + LK]
    inputs.push(kw);
    x = tf.layers.concatenate().apply([x, kw]) as tf.SymbolicTensor; // Concat2 of Figure 1
  }
  x = tf.layers
    .dense({ units: c.keywordDenseUnits, activation: 'relu', ...ZERO_INIT })
    .apply(x) as tf.SymbolicTensor;
  const out = tf.layers
    .dense({ units: 2, activation: 'softmax', ...ZERO_INIT })
    .apply(x) as tf.SymbolicTensor;
  const model = tf.model({ inputs, outputs: out });
  initialiseWeights(model, rng.fork('init'));
  return model;
}

/** A BiLSTM relevance model (KwBiLSTM or vanilla). */
export class BiLstmModel implements RelevanceModel {
  private readonly kwSize: number;
  /** The network's weights for the plain forward pass; cleared whenever training changes them. */
  private plain: PlainBiLstm | undefined;

  private constructor(
    readonly name: BiLstmKind,
    private readonly network: tf.LayersModel,
    private readonly vectors: WordVectors,
    private readonly topic: TopicKeywords | undefined,
    private readonly config: BiLstmConfig,
  ) {
    this.kwSize = topic === undefined ? 0 : keywordFeatureSize(topic.shortcut1);
  }

  /** Rows of the first `maxLen` tokens that have a vector. */
  private encode(e: TextExample): Int32Array {
    const rows: number[] = [];
    for (const t of e.tokens) {
      const r = this.vectors.indexOf(t);
      if (r >= 0) rows.push(r);
      if (rows.length === this.config.maxLen) break;
    }
    return Int32Array.from(rows);
  }

  /** Input tensors of a batch; time steps = longest text of the batch (masking makes it exact). */
  private inputs(examples: readonly TextExample[], encoded: readonly Int32Array[]): tf.Tensor[] {
    const d = this.vectors.dim;
    const time = Math.max(1, ...encoded.map((r) => r.length));
    const seq = new Float32Array(encoded.length * time * d);
    encoded.forEach((rows, b) => {
      for (let t = 0; t < rows.length; t++) seq.set(this.vectors.row(rows[t] as number), (b * time + t) * d);
    });
    const out: tf.Tensor[] = [tf.tensor3d(seq, [encoded.length, time, d])];
    if (this.name === 'kwbilstm' && this.topic !== undefined) {
      const kw = new Float32Array(examples.length * this.kwSize);
      examples.forEach((e, b) => {
        writeKeywordFeatures(e, this.topic as TopicKeywords, kw, b * this.kwSize);
      });
      out.push(tf.tensor2d(kw, [examples.length, this.kwSize]));
    }
    return out;
  }

  /** P(relevant) of token examples, one at a time by the plain forward pass (`bilstm-inference.ts`). */
  async scoreExamples(examples: readonly TextExample[]): Promise<Float32Array> {
    this.plain ??= new PlainBiLstm(readBiLstmWeights(this.network));
    const plain = this.plain;
    const kw = this.topic === undefined ? undefined : new Float32Array(this.kwSize);
    const out = new Float32Array(examples.length);
    examples.forEach((e, i) => {
      if (kw !== undefined) writeKeywordFeatures(e, this.topic as TopicKeywords, kw, 0);
      out[i] = plain.score(this.vectors, this.encode(e), kw);
    });
    return out;
  }

  /**
   * P(relevant) of token examples by the TensorFlow.js network, in batches of `scoreBatchSize`:
   * the reference the plain forward pass is tested against.
   */
  async scoreWithNetwork(examples: readonly TextExample[]): Promise<Float32Array> {
    await ensureTfBackend();
    const out = new Float32Array(examples.length);
    const size = this.config.scoreBatchSize;
    for (let start = 0; start < examples.length; start += size) {
      const batch = examples.slice(start, start + size);
      const xs = this.inputs(
        batch,
        batch.map((e) => this.encode(e)),
      );
      const p = tf.tidy(() =>
        (this.network.apply(xs, { training: false }) as tf.Tensor).slice([0, 1], [-1, 1]),
      );
      out.set(await p.data(), start);
      p.dispose();
      for (const x of xs) x.dispose();
    }
    return out;
  }

  async scorePages(pages: readonly PageInput[]): Promise<Float32Array> {
    return this.scoreExamples(pageExamples(pages));
  }

  async scoreAnchors(anchors: readonly AnchorInput[]): Promise<Float32Array> {
    return this.scoreExamples(anchorExamples(anchors));
  }

  /**
   * Trains a new network.
   * @throws RangeError if a KwBiLSTM is asked for without topic keywords
   */
  static async train(input: BiLstmTrainInput): Promise<BiLstmModel> {
    await ensureTfBackend();
    if (input.kind === 'kwbilstm' && input.topic === undefined)
      throw new RangeError('KwBiLSTM needs topic keywords');
    const c = input.config;
    const topic = input.kind === 'kwbilstm' ? input.topic : undefined;
    const kwSize = topic === undefined ? 0 : keywordFeatureSize(topic.shortcut1);
    const network = buildNetwork(input.kind, c, input.vectors.dim, kwSize, input.rng);
    const model = new BiLstmModel(input.kind, network, input.vectors, topic, c);
    const encoded = input.train.map((e) => model.encode(e));
    const optimizer = tf.train.adam(c.learningRate);
    const order = Array.from({ length: input.train.length }, (_, i) => i);
    const batches = Math.ceil(order.length / c.batchSize);
    let best: { loss: number; weights: tf.Tensor[] } = { loss: Number.POSITIVE_INFINITY, weights: [] };
    let sinceBest = 0;
    for (let epoch = 1; epoch <= c.maxEpochs; epoch++) {
      input.rng.shuffle(order);
      let lossSum = 0;
      for (let b = 0; b < batches; b++) {
        const idx = order.slice(b * c.batchSize, (b + 1) * c.batchSize);
        const xs = model.inputs(
          idx.map((i) => input.train[i] as TextExample),
          idx.map((i) => encoded[i] as Int32Array),
        );
        const y = tf.tensor2d(
          idx.flatMap((i) => (input.trainLabels[i] === 1 ? [0, 1] : [1, 0])),
          [idx.length, 2],
        );
        const w = tf.tensor1d(idx.map((i) => input.trainWeights[i] as number));
        const loss = optimizer.minimize(() => {
          const p = network.apply(xs, { training: true }) as tf.Tensor; // [batch, 2]
          const ce = tf.neg(tf.sum(tf.mul(y, tf.log(tf.clipByValue(p, 1e-7, 1 - 1e-7))), -1)); // [batch]
          return tf.div(tf.sum(tf.mul(ce, w)), tf.sum(w)) as tf.Scalar;
        }, true) as tf.Scalar;
        lossSum += (await loss.data())[0] as number;
        tf.dispose([loss, y, w, ...xs]);
        input.onProgress?.({
          model: input.kind,
          epoch,
          maxEpochs: c.maxEpochs,
          batch: b + 1,
          batches,
          trainLoss: lossSum / (b + 1),
        });
      }
      model.plain = undefined; // the weights moved
      const valProbs = await model.scoreExamples(input.validation);
      const valLoss =
        input.validation.length > 0 ? logLoss(input.validationLabels, valProbs) : lossSum / batches;
      const isBest = valLoss < best.loss - EARLY_STOPPING_MIN_DELTA;
      if (isBest) {
        tf.dispose(best.weights);
        best = { loss: valLoss, weights: network.getWeights().map((t) => t.clone()) };
        sinceBest = 0;
      } else sinceBest++;
      input.onProgress?.({
        model: input.kind,
        epoch,
        maxEpochs: c.maxEpochs,
        trainLoss: lossSum / batches,
        valLoss,
        isBest,
      });
      if (sinceBest > c.patience) break;
    }
    network.setWeights(best.weights);
    model.plain = undefined;
    tf.dispose(best.weights);
    optimizer.dispose();
    return model;
  }

  async save(dir: string): Promise<void> {
    const weights = this.network.getWeights();
    const arrays: Record<string, Float32Array> = {};
    const shapes: number[][] = [];
    weights.forEach((t, i) => {
      arrays[`w${i}`] = t.dataSync() as Float32Array;
      shapes.push(t.shape);
    });
    writeModelFiles(
      dir,
      this.name,
      {
        config: this.config,
        topic: this.topic === undefined ? null : topicToJson(this.topic),
        shapes,
        vectorDim: this.vectors.dim,
      },
      arrays,
    );
  }

  dispose(): void {
    this.network.dispose();
  }

  /** Loads a model saved by {@link save}. @throws ConfigError if the folder is damaged */
  static async load(dir: string, vectors: WordVectors): Promise<BiLstmModel> {
    await ensureTfBackend();
    const { manifest, arrays } = readModelFiles(dir);
    const meta = manifest.meta as {
      config: BiLstmConfig;
      topic: TopicKeywordsJson | null;
      shapes: number[][];
    };
    const kind = manifest.name as BiLstmKind;
    const topic = meta.topic === null ? undefined : topicFromJson(meta.topic);
    const kwSize = topic === undefined ? 0 : keywordFeatureSize(topic.shortcut1);
    const network = buildNetwork(kind, meta.config, vectors.dim, kwSize, createRng('load'));
    const tensors = meta.shapes.map((shape, i) => tf.tensor(requireArray(arrays, `w${i}`, dir), shape));
    network.setWeights(tensors);
    tf.dispose(tensors);
    return new BiLstmModel(kind, network, vectors, topic, meta.config);
  }
}
