/**
 * The judge of a crawl that has only the topic's words and perhaps a few example pages: no
 * labelled sample to train on. It starts as the keyword judge (keyword occurrences squashed into a
 * probability) and learns from the pages the crawl meets, which it keeps as they are judged:
 * every so often a linear SVM on their TF-IDF vectors is trained with the keyword verdicts as
 * labels, each weighed by how often the user's labels agree with verdicts of its kind, and the
 * example pages and the pages the user labelled weighted up. The SVM does not see the keywords
 * themselves: with them it would learn the keyword labels back and nothing else. Fitted to noisy keyword labels from the other
 * words of the pages, it follows the words that come with the keywords, so a page of the topic's
 * vocabulary with few keywords is called relevant and a page with a few generic keywords among
 * another topic's words is not.
 */
import { createRng, type Rng } from '../common/index.js';
import { KeywordSet, pageTokens } from '../text/index.js';
import type { SvmConfig, VocabularyConfig } from './config.js';
import { DEFAULT_RELEVANCE_CONFIG } from './config.js';
import { anchorExamples } from './features.js';
import { LinearSvmModel } from './linear-svm.js';
import type { AnchorInput, PageInput, TextExample } from './types.js';

/** Options of {@link ColdStartJudge}. */
export interface ColdStartJudgeOptions {
  /** Topic keywords (single words; tokenized as pages are). Required, at least one. */
  keywords: readonly string[];
  /** Example relevant pages (title and text) the user gave. @default none */
  examples?: readonly PageInput[];
  /** Seed of the SVM's training order. @default 'cold-start' */
  seed?: string | number;
  /**
   * Pages judged before the first fit; the next fit comes after twice as many pages, and so on
   * up to {@link maxRefitEveryPages} pages between fits. false: never learn (the keyword judge
   * with examples ignored). @default 100
   */
  firstFitAtPages?: number | false;
  /** Most pages between two fits. @default 1000 */
  maxRefitEveryPages?: number;
  /** Keyword occurrences at which the keyword probability reaches 0.5 (the keyword judge's). @default 3 */
  halfAtCount?: number;
  /** Pages kept to learn from: the first ones, then a seeded uniform sample of all. @default 4000 */
  maxPoolPages?: number;
  /** Tokens kept of a page to learn from. @default 1500 */
  maxTokensPerPage?: number;
  /** Weight of the examples together, as a share of the weight of the pages labelled relevant. @default 0.5 */
  exampleShare?: number;
  /**
   * Weigh the keyword labels of the pages by how often the user's labels agree with them: a page
   * the keywords call relevant counts as relevant with the measured precision of that verdict and
   * as irrelevant with the rest (likewise for "irrelevant"), once the user labelled
   * {@link MIN_MEASURED_LABELS} pages of that verdict. false: trust the keyword labels. @default true
   */
  isNoiseMeasured?: boolean;
}

/** Defaults of {@link ColdStartJudgeOptions}. */
export const DEFAULT_COLD_START_JUDGE = {
  seed: 'cold-start',
  firstFitAtPages: 100,
  maxRefitEveryPages: 1000,
  halfAtCount: 3,
  maxPoolPages: 4000,
  maxTokensPerPage: 1500,
  exampleShare: 0.5,
  isNoiseMeasured: true,
} as const;

/** The examples' share is spread over at least this many, so one example weighs no more than a tenth. */
const MIN_LABELS_SHARING = 10;

/** User's labels of pages of one keyword verdict before that verdict's precision is measured. */
export const MIN_MEASURED_LABELS = 5;

/** Scored pages whose words are kept for a label that may come (questions are about recent pages). */
const RECENT_PAGES = 1000;

/** Most judged pages between a user's label and the fit that learns it. */
export const LABEL_FIT_DELAY_PAGES = 20;

const SVM: SvmConfig = { ...DEFAULT_RELEVANCE_CONFIG.svm, maxEpochs: 10, patience: 2 };
const VOCABULARY: VocabularyConfig = { maxFeatures: 20_000, minDocFreq: 2 };

/** A page judge that learns from the pages of its own crawl (positive and unlabelled learning). */
export class ColdStartJudge {
  readonly name = 'cold-start';
  private readonly keywords: KeywordSet;
  private readonly halfAtCount: number;
  /** The examples and the pages labelled relevant by the user. */
  private readonly positives: TextExample[];
  /** Pages labelled irrelevant by the user. */
  private readonly negatives: TextExample[] = [];
  private readonly pool: TextExample[] = [];
  /** Keyword probability of each pool page. */
  private readonly poolScores: number[] = [];
  /** The pages scored last, by URL, oldest first (for {@link learn}). */
  private readonly recent = new Map<string, { tokens: string[]; keywordP: number }>();
  /** The user's labels of pages this judge scored, beside the keyword verdict of each. */
  private readonly agreements: { isKeywordRelevant: boolean; isRelevant: boolean }[] = [];
  private readonly rng: Rng;
  private readonly o: Required<Omit<ColdStartJudgeOptions, 'examples'>>;
  private model: LinearSvmModel | undefined;
  private judged = 0;
  private nextFitAt: number;
  private fits = 0;

  constructor(options: ColdStartJudgeOptions) {
    const d = DEFAULT_COLD_START_JUDGE;
    this.o = {
      keywords: options.keywords,
      seed: options.seed ?? d.seed,
      firstFitAtPages: options.firstFitAtPages ?? d.firstFitAtPages,
      maxRefitEveryPages: options.maxRefitEveryPages ?? d.maxRefitEveryPages,
      halfAtCount: options.halfAtCount ?? d.halfAtCount,
      maxPoolPages: options.maxPoolPages ?? d.maxPoolPages,
      maxTokensPerPage: options.maxTokensPerPage ?? d.maxTokensPerPage,
      exampleShare: options.exampleShare ?? d.exampleShare,
      isNoiseMeasured: options.isNoiseMeasured ?? d.isNoiseMeasured,
    };
    this.keywords = new KeywordSet(options.keywords);
    this.halfAtCount = this.o.halfAtCount;
    this.rng = createRng(this.o.seed).fork('cold-start');
    this.nextFitAt = this.o.firstFitAtPages === false ? Number.POSITIVE_INFINITY : this.o.firstFitAtPages;
    this.positives = (options.examples ?? []).map((p) => ({
      tokens: this.withoutKeywords(this.cut(pageTokens(p.title, p.text))),
      url: p.url,
    }));
  }

  /**
   * A page the user labelled (an answer to a question, relevance feedback): it is trained on with
   * its label, weighted as an example, from the next fit on, which comes within
   * {@link LABEL_FIT_DELAY_PAGES} judged pages.
   */
  learn(page: PageInput, isRelevant: boolean): void {
    // A page this judge scored lately is learnt from all the words it read then, not only from
    // what the caller passes (a question carries the beginning of the page's text).
    const seen = page.url === '' ? undefined : this.recent.get(page.url);
    const tokens = seen?.tokens ?? this.withoutKeywords(this.cut(pageTokens(page.title, page.text)));
    if (seen) this.agreements.push({ isKeywordRelevant: seen.keywordP >= 0.5, isRelevant });
    (isRelevant ? this.positives : this.negatives).push({ tokens, url: page.url });
    if (this.o.firstFitAtPages !== false)
      this.nextFitAt = Math.min(this.nextFitAt, this.judged + LABEL_FIT_DELAY_PAGES);
  }

  /** Fits made so far and pages kept to learn from. */
  stats(): { fits: number; poolPages: number; judgedPages: number } {
    return { fits: this.fits, poolPages: this.pool.length, judgedPages: this.judged };
  }

  async scorePages(pages: readonly PageInput[]): Promise<Float32Array> {
    const out = new Float32Array(pages.length);
    pages.forEach((page, i) => {
      const tokens = this.cut(pageTokens(page.title, page.text));
      const keywordP = this.keywordProbability(tokens);
      const example = { tokens: this.withoutKeywords(tokens), url: page.url };
      out[i] = this.model ? (this.model.scoreExamples([example])[0] as number) : keywordP;
      this.keep(example, keywordP);
      this.remember(example, keywordP);
      this.judged++;
      if (this.judged >= this.nextFitAt) {
        this.fit();
        this.nextFitAt = this.judged + Math.min(this.o.maxRefitEveryPages, this.judged);
      }
    });
    return out;
  }

  /** Links by keyword occurrences in their anchor text and URL words, as the keyword judge. */
  async scoreAnchors(anchors: readonly AnchorInput[]): Promise<Float32Array> {
    return Float32Array.from(anchorExamples(anchors), (e) => {
      const n = this.keywords.count(e.tokens);
      return n / (n + 1);
    });
  }

  private cut(tokens: string[]): string[] {
    return tokens.length > this.o.maxTokensPerPage ? tokens.slice(0, this.o.maxTokensPerPage) : tokens;
  }

  private withoutKeywords(tokens: string[]): string[] {
    return tokens.filter((t) => !this.keywords.has(t));
  }

  private keywordProbability(tokens: readonly string[]): number {
    const n = this.keywords.count(tokens);
    return n / (n + this.halfAtCount);
  }

  private remember(example: TextExample, keywordP: number): void {
    if (!example.url) return;
    this.recent.delete(example.url);
    this.recent.set(example.url, { tokens: example.tokens, keywordP });
    if (this.recent.size > RECENT_PAGES) this.recent.delete(this.recent.keys().next().value as string);
  }

  /** Keeps a judged page: the first maxPoolPages, then reservoir sampling (seeded). */
  private keep(example: TextExample, keywordP: number): void {
    if (this.pool.length < this.o.maxPoolPages) {
      this.pool.push(example);
      this.poolScores.push(keywordP);
      return;
    }
    const slot = this.rng.int(this.judged + 1);
    if (slot < this.pool.length) {
      this.pool[slot] = example;
      this.poolScores[slot] = keywordP;
    }
  }

  /**
   * How far a keyword verdict is to be trusted: the share of the user's labels of pages with that
   * verdict that agree with it (Laplace-smoothed), or 1 before there are enough of them.
   */
  private trust(isKeywordRelevant: boolean): number {
    if (!this.o.isNoiseMeasured) return 1;
    const labels = this.agreements.filter((a) => a.isKeywordRelevant === isKeywordRelevant);
    if (labels.length < MIN_MEASURED_LABELS) return 1;
    const agreeing = labels.filter((a) => a.isRelevant === isKeywordRelevant).length;
    return (agreeing + 1) / (labels.length + 2);
  }

  /** Trains the SVM again on the pool with its keyword labels, the examples and the user's labels. */
  private fit(): void {
    const relevant = this.poolScores.filter((s) => s >= 0.5).length;
    const irrelevant = this.poolScores.length - relevant;
    // Both classes are needed; with none of one the judge stays as it is.
    if (irrelevant + this.negatives.length === 0 || relevant + this.positives.length < 2) return;
    const train: TextExample[] = [];
    const trainLabels: number[] = [];
    const base: number[] = [];
    const add = (example: TextExample, label: number, weight: number) => {
      if (weight <= 0) return;
      train.push(example);
      trainLabels.push(label);
      base.push(weight);
    };
    // A pool page counts as its keyword label with the verdict's trust, and as the other label
    // with the rest of its weight.
    const trustRelevant = this.trust(true);
    const trustIrrelevant = this.trust(false);
    this.pool.forEach((example, i) => {
      const label = (this.poolScores[i] as number) >= 0.5 ? 1 : 0;
      const trust = label === 1 ? trustRelevant : trustIrrelevant;
      add(example, label, trust);
      add(example, 1 - label, 1 - trust);
    });
    // The examples and the user's labels carry exampleShare of the pool's relevant weight, each
    // as much as the others.
    const poolRelevantMass = base.reduce((sum, w, i) => sum + (trainLabels[i] === 1 ? w : 0), 0);
    const labelWeight =
      (this.o.exampleShare * Math.max(1, poolRelevantMass)) /
      Math.max(MIN_LABELS_SHARING, this.positives.length);
    for (const example of this.positives) add(example, 1, labelWeight);
    for (const example of this.negatives) add(example, 0, labelWeight);
    // Balanced classes: each class carries half the weight.
    let relevantMass = 0;
    base.forEach((w, i) => {
      if (trainLabels[i] === 1) relevantMass += w;
    });
    const irrelevantMass = base.reduce((sum, w) => sum + w, 0) - relevantMass;
    const trainWeights = Float32Array.from(
      base,
      (w, i) => (w * train.length) / (2 * (trainLabels[i] === 1 ? relevantMass : irrelevantMass)),
    );
    this.model = LinearSvmModel.train({
      train,
      trainLabels,
      trainWeights,
      // Probabilities as the labels say, each weighted as it is trained on but without the class
      // balance, so a few answers move the verdicts and not only the boundary.
      plattWeights: base,
      validation: [],
      validationLabels: [],
      config: SVM,
      vocabulary: VOCABULARY,
      rng: this.rng.fork(`fit-${this.fits}`),
    });
    this.fits++;
  }
}
