/**
 * Multinomial naive Bayes on word counts: the baseline page classifier of Chakrabarti et al.'s
 * focused crawler. Word probabilities smoothed toward the collection (see `train`), which is
 * smoothed by `alpha`; P(relevant) from the two log joint probabilities.
 */
import type { NaiveBayesConfig, VocabularyConfig } from './config.js';
import { anchorExamples, pageExamples } from './features.js';
import { readModelFiles, requireArray, writeModelFiles } from './model-files.js';
import type { AnchorInput, PageInput, RelevanceModel, TextExample } from './types.js';
import { Vocabulary } from './vocabulary.js';

/** Multinomial naive Bayes relevance model. */
export class NaiveBayesModel implements RelevanceModel {
  readonly name = 'nb' as const;

  /**
   * @param logLikelihood [2, vocab]: ln P(word | class), row 0 irrelevant, row 1 relevant
   * @param logPrior [2]: ln P(class)
   */
  constructor(
    private readonly vocab: Vocabulary,
    private readonly logLikelihood: Float32Array,
    private readonly logPrior: Float32Array,
  ) {}

  /** Fits the model on `examples` with 0/1 `labels` (closed form, no randomness). */
  static train(
    examples: readonly TextExample[],
    labels: ArrayLike<number>,
    config: NaiveBayesConfig,
    vocabConfig: VocabularyConfig,
  ): NaiveBayesModel {
    const vocab = Vocabulary.build(
      examples.map((e) => e.tokens),
      vocabConfig,
    );
    const v = vocab.size;
    const counts = new Float64Array(2 * v);
    const docs = [0, 0];
    examples.forEach((e, i) => {
      const cls = labels[i] === 1 ? 1 : 0;
      docs[cls] = (docs[cls] as number) + 1;
      const c = vocab.counts(e.tokens);
      for (let k = 0; k < c.indices.length; k++) {
        const j = cls * v + (c.indices[k] as number);
        counts[j] = (counts[j] as number) + (c.values[k] as number);
      }
    });
    // Each class's word probabilities are smoothed toward the words of both classes together
    // (Dirichlet smoothing with the collection as its mean, Zhai and Lafferty 2001), that
    // collection smoothed by `alpha` over the vocabulary, instead of by `alpha` alone. Additive
    // smoothing gives a word a class never showed alpha / (class words + alpha V): the class with
    // fewer words (shorter documents) spreads its share over a vocabulary far larger than itself,
    // so every common word it happened not to see speaks for the other class. With 5 long
    // irrelevant and 5 short relevant documents that made every held-out document irrelevant
    // (macro F1 33.3); smoothed toward the collection, such a word weighs little either way.
    let pooled = 0;
    for (let j = 0; j < 2 * v; j++) pooled += counts[j] as number;
    const mu = Math.max(1, pooled / Math.max(1, examples.length)); // words of the mean document
    const logLikelihood = new Float32Array(2 * v);
    for (let cls = 0; cls < 2; cls++) {
      let total = 0;
      for (let j = 0; j < v; j++) total += counts[cls * v + j] as number;
      const denom = Math.log(total + mu);
      for (let j = 0; j < v; j++) {
        const collection =
          ((counts[j] as number) + (counts[v + j] as number) + config.alpha) / (pooled + config.alpha * v);
        logLikelihood[cls * v + j] = Math.log((counts[cls * v + j] as number) + mu * collection) - denom;
      }
    }
    const n = examples.length;
    const logPrior = Float32Array.from(docs, (d) => Math.log(d / n));
    return new NaiveBayesModel(vocab, logLikelihood, logPrior);
  }

  /** P(relevant) of token examples. */
  scoreExamples(examples: readonly TextExample[]): Float32Array {
    const v = this.vocab.size;
    const out = new Float32Array(examples.length);
    examples.forEach((e, i) => {
      const c = this.vocab.counts(e.tokens);
      let l0 = this.logPrior[0] as number;
      let l1 = this.logPrior[1] as number;
      for (let k = 0; k < c.indices.length; k++) {
        const j = c.indices[k] as number;
        const n = c.values[k] as number;
        l0 += n * (this.logLikelihood[j] as number);
        l1 += n * (this.logLikelihood[v + j] as number);
      }
      out[i] = 1 / (1 + Math.exp(l0 - l1));
    });
    return out;
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
      { docFreq: this.vocab.docFreq, logLikelihood: this.logLikelihood, logPrior: this.logPrior },
    );
  }

  dispose(): void {}

  /** Loads a model saved by {@link save}. @throws ConfigError if the folder is damaged */
  static load(dir: string): NaiveBayesModel {
    const { manifest, arrays } = readModelFiles(dir);
    const meta = manifest.meta as { words: string[]; documents: number };
    const vocab = new Vocabulary(meta.words, requireArray(arrays, 'docFreq', dir), meta.documents);
    return new NaiveBayesModel(
      vocab,
      requireArray(arrays, 'logLikelihood', dir),
      requireArray(arrays, 'logPrior', dir),
    );
  }
}
