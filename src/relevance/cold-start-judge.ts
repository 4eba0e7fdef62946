/**
 * The judge of a crawl that has only the topic's words and perhaps a few example pages: no
 * labelled sample to train on. It starts as the keyword judge (keyword occurrences squashed into a
 * probability) and learns from the pages the crawl meets, which it keeps as they are judged:
 * every so often a linear SVM on their TF-IDF vectors is trained with the keyword verdicts as
 * labels, the example pages and the pages the user labelled weighted up. The SVM does not see the keywords
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
} as const;

/** The examples' share is spread over at least this many, so one example weighs no more than a tenth. */
const MIN_LABELS_SHARING = 10;

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
  /** The words of the pages scored last, by URL, oldest first (for {@link learn}). */
  private readonly recent = new Map<string, string[]>();
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
    const tokens = seen ?? this.withoutKeywords(this.cut(pageTokens(page.title, page.text)));
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
      this.remember(example);
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

  private remember(example: TextExample): void {
    if (!example.url) return;
    this.recent.delete(example.url);
    this.recent.set(example.url, example.tokens);
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

  /** Trains the SVM again on the pool with its keyword labels, the examples and the user's labels. */
  private fit(): void {
    const labels = this.poolScores.map((s) => (s >= 0.5 ? 1 : 0));
    const relevant = labels.reduce<number>((a, b) => a + b, 0);
    const irrelevant = labels.length - relevant;
    // Both classes are needed; with none of one the judge stays as it is.
    if (irrelevant + this.negatives.length === 0 || relevant + this.positives.length < 2) return;
    // Balanced classes: each class carries half the weight; the examples and labelled pages
    // carry exampleShare of the relevant class's, each counting as much as a labelled page does.
    const positiveMass = Math.max(1, relevant);
    const labelWeight =
      (this.o.exampleShare * positiveMass) / Math.max(MIN_LABELS_SHARING, this.positives.length);
    const relevantMass = positiveMass + labelWeight * this.positives.length;
    const irrelevantMass = irrelevant + labelWeight * this.negatives.length;
    const total = labels.length + this.positives.length + this.negatives.length;
    const train = [...this.pool, ...this.positives, ...this.negatives];
    const trainLabels = [...labels, ...this.positives.map(() => 1), ...this.negatives.map(() => 0)];
    const trainWeights = Float32Array.from(trainLabels, (y, i) => {
      const weight = i < labels.length ? 1 : labelWeight;
      return (weight * total) / (2 * (y === 1 ? relevantMass : irrelevantMass));
    });
    this.model = LinearSvmModel.train({
      train,
      trainLabels,
      trainWeights,
      validation: [],
      validationLabels: [],
      config: SVM,
      vocabulary: VOCABULARY,
      rng: this.rng.fork(`fit-${this.fits}`),
    });
    this.fits++;
  }
}
