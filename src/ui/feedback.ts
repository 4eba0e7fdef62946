/**
 * Relevance feedback that retrains: labels given in the dashboard and answers to the crawl's
 * questions are stored in the crawl store; after `retrainAfterLabels` new labels (or on demand)
 * the page model is retrained in a worker
 * thread (retrain-job.ts), checked by cross-validation on the labels, and swapped into the running
 * crawl only if it is not worse. The accepted model is saved in the crawl folder
 * (`feedback/model-vN/`) and named in meta `feedback`, so a resume judges with it; every page
 * records the version of the judge that scored it.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { ConfigError } from '../common/index.js';
import type { Crawler, PageJudge } from '../crawl/index.js';
import type { CrawlStore, PageLabel } from '../store/index.js';
import type { JobPage, RetrainJob, RetrainResult } from './retrain-job.js';
import { runRetrainInWorker } from './run-worker.js';
import { readTrainingRecord } from './training-record.js';

/** Options of {@link RelevanceFeedback}. */
export interface FeedbackOptions {
  /** Retrain after this many new labels; `false`: only on demand. @default 10 */
  retrainAfterLabels?: number | false;
  /** Most folds of the cross-validation over the labels. @default 5 */
  folds?: number;
  /** Copies of each label in the training set (a label weighs more than a document). @default 3 */
  labelWeight?: number;
  /** A keyword-judged page at or above this probability is a pseudo-label "relevant". @default 0.8 */
  confidentRelevantAt?: number;
  /** A keyword-judged page at or below this probability is a pseudo-label "irrelevant". @default 0.4 */
  confidentIrrelevantAt?: number;
  /** Most pseudo-labelled pages per class (both classes get as many). @default 300 */
  maxPseudoLabels?: number;
  /**
   * Model trained for a keyword-judged crawl (no model to retrain): naive Bayes or the linear SVM
   * on TF-IDF; neither needs word vectors. The SVM raised precision more in the feedback
   * benchmark (results/ui/feedback.md against feedback-nb.md). @default 'svm'
   */
  keywordCrawlModel?: 'nb' | 'svm';
  /** Seed of folds and training. @default 'feedback' */
  seed?: string;
  /** Runs a job (tests may run it in-process). @default a worker thread */
  runJob?: (job: RetrainJob) => Promise<RetrainResult>;
  /** Loads a saved model as a judge. @default the relevance room's loadModel */
  loadJudge?: (dir: string) => Promise<PageJudge>;
}

/** Defaults of {@link FeedbackOptions}. */
export const DEFAULT_FEEDBACK_OPTIONS = {
  retrainAfterLabels: 10 as number | false,
  folds: 5,
  labelWeight: 3,
  confidentRelevantAt: 0.8,
  confidentIrrelevantAt: 0.4,
  maxPseudoLabels: 300,
  keywordCrawlModel: 'svm' as 'nb' | 'svm',
  seed: 'feedback',
};

/** The running crawl the feedback steers. */
export interface FeedbackContext {
  crawler: Pick<Crawler, 'setJudge' | 'judgeVersion'>;
  store: CrawlStore;
  /** The crawl folder. */
  outDir: string;
  /** Reward threshold of the crawl. */
  threshold: number;
  /** Topic keywords of the crawl (the keyword judge's words). */
  keywords: string[];
  /** Folder of the model the crawl started with (`--model`); undefined: keyword judge. */
  baseModelDir?: string;
  /**
   * Name of the judge the crawl started with, when it may be other than the keyword judge
   * without a `baseModelDir` (a judge object the library was given): retraining then compares
   * with the probabilities that judge recorded. @default 'keywords'
   */
  judgeName?: string;
}

/** One retraining as the dashboard shows it. */
export interface RetrainReport extends Omit<RetrainResult, 'pages'> {
  /** Judge version after it (the previous one when refused). */
  version: number;
  finishedAt: number;
  reason: 'labels' | 'request';
  /** Up to 50 labelled pages: recorded probability and the retrained model's (held out). */
  pages: RetrainResult['pages'];
}

/** What meta `feedback` holds. */
interface FeedbackMeta {
  version: number;
  modelDir?: string;
  model?: string;
  labelsAtLastRetrain: number;
  history: (RetrainReport | { error: string; finishedAt: number })[];
}

/** Feedback state for the dashboard. */
export interface FeedbackStatus {
  labels: number;
  relevantLabels: number;
  newLabels: number;
  retrainAfterLabels: number | false;
  judgeVersion: number;
  isTraining: boolean;
  model: string;
  history: FeedbackMeta['history'];
}

/** The folder of an accepted model of version `version` in crawl folder `outDir`. */
export function feedbackModelDir(outDir: string, version: number): string {
  return join(outDir, 'feedback', `model-v${version}`);
}

/**
 * The model folder a resume should judge with (meta `feedback` of the crawl), or undefined.
 * @param meta the crawl's meta `feedback` value
 */
export function resumeModelDir(outDir: string, meta: unknown): string | undefined {
  const m = meta as Partial<FeedbackMeta> | undefined;
  if (!m?.modelDir) return undefined;
  const dir = isAbsolute(m.modelDir) ? m.modelDir : join(outDir, m.modelDir);
  return existsSync(join(dir, 'model.json')) ? dir : undefined;
}

/** Relevance feedback of one running crawl. */
export class RelevanceFeedback {
  private readonly o: typeof DEFAULT_FEEDBACK_OPTIONS & Pick<FeedbackOptions, 'runJob' | 'loadJudge'>;
  private meta: FeedbackMeta;
  private training: Promise<RetrainReport> | undefined;

  constructor(
    private readonly ctx: FeedbackContext,
    options: FeedbackOptions = {},
  ) {
    this.o = { ...DEFAULT_FEEDBACK_OPTIONS, ...options };
    const n = this.o.retrainAfterLabels;
    if (n !== false && (!Number.isInteger(n) || n < 1))
      throw new ConfigError(`retrainAfterLabels must be an integer >= 1 or false, got ${n}`, {
        context: { field: 'retrainAfterLabels' },
      });
    this.meta = ctx.store.getMeta<FeedbackMeta>('feedback') ?? {
      version: ctx.crawler.judgeVersion,
      labelsAtLastRetrain: 0,
      history: [],
    };
  }

  /**
   * Stores a label; starts a retraining in the background when enough new labels came.
   * @throws ConfigError if the page is not a fetched page of the crawl.
   */
  label(pageId: number, isRelevant: boolean): { label: PageLabel; isRetraining: boolean } {
    const label = this.ctx.store.addLabel(pageId, isRelevant);
    return { label, isRetraining: this.noteLabels() };
  }

  /**
   * Labels were stored by someone else (an answer to the crawl's question): starts a retraining
   * in the background when enough new labels came. Returns true if it started one.
   */
  noteLabels(): boolean {
    const n = this.o.retrainAfterLabels;
    const labels = this.ctx.store.labelCount();
    if (n === false || labels - this.meta.labelsAtLastRetrain < n || this.training) return false;
    this.retrain('labels').catch(() => {}); // the failure is kept in the history
    return true;
  }

  /**
   * Retrains on the answers to `crawler`'s questions (its `answer` events) as they come.
   * @returns a function that stops listening.
   */
  watchAnswers(crawler: Pick<Crawler, 'on' | 'off'>): () => void {
    const onAnswer = () => {
      this.noteLabels();
    };
    crawler.on('answer', onAnswer);
    return () => crawler.off('answer', onAnswer);
  }

  /** Retrains now (or returns the retraining under way). */
  retrain(reason: 'labels' | 'request' = 'request'): Promise<RetrainReport> {
    this.training ??= this.run(reason).finally(() => {
      this.training = undefined;
    });
    return this.training;
  }

  status(): FeedbackStatus {
    const labels = this.ctx.store.labels();
    const count = this.ctx.store.labelCount();
    return {
      labels: labels.length,
      relevantLabels: labels.filter((l) => l.isRelevant).length,
      newLabels: count - this.meta.labelsAtLastRetrain,
      retrainAfterLabels: this.o.retrainAfterLabels,
      judgeVersion: this.ctx.crawler.judgeVersion,
      isTraining: this.training !== undefined,
      model: this.meta.model ?? (this.ctx.baseModelDir ? 'base model' : 'keywords'),
      history: this.meta.history,
    };
  }

  private async run(reason: 'labels' | 'request'): Promise<RetrainReport> {
    const labelsNow = this.ctx.store.labelCount();
    this.meta.labelsAtLastRetrain = labelsNow;
    try {
      const job = this.buildJob();
      const result = await (this.o.runJob ?? runRetrainInWorker)(job);
      let version = this.ctx.crawler.judgeVersion;
      if (result.isAccepted) {
        const judge = await (this.o.loadJudge ?? defaultLoadJudge)(job.outDir);
        version += 1;
        // A cluster's workers get the model's files through Redis before this resolves.
        await this.ctx.crawler.setJudge(judge, version, job.outDir);
        this.meta.version = version;
        this.meta.modelDir = job.outDir;
        this.meta.model = job.model;
      }
      const report: RetrainReport = {
        ...result,
        pages: result.pages.slice(0, 50),
        version,
        finishedAt: Date.now(),
        reason,
      };
      this.pushHistory(report);
      return report;
    } catch (error) {
      this.pushHistory({
        error: error instanceof Error ? error.message : String(error),
        finishedAt: Date.now(),
      });
      throw error;
    }
  }

  private pushHistory(entry: FeedbackMeta['history'][number]): void {
    this.meta.history = [...this.meta.history, entry].slice(-20);
    this.ctx.store.setMeta('feedback', this.meta);
  }

  private buildJob(): RetrainJob {
    const { store, outDir } = this.ctx;
    const labelled = store.labels();
    const labelledIds = new Set(labelled.map((l) => l.pageId));
    // An asked page's text was kept with its question: no WARC file needed for it.
    const asked = new Map(store.questions().map((q) => [q.pageId, q]));
    const version = this.ctx.crawler.judgeVersion;
    const base = this.ctx.baseModelDir;
    const currentDir = version > 0 ? this.meta.modelDir : base;
    const training = base ? readTrainingRecord(base) : undefined;
    const pages: JobPage[] = [];
    for (const l of labelled) {
      const q = asked.get(l.pageId);
      const page = q
        ? ({
            url: q.url,
            title: q.title,
            text: q.text,
            label: l.isRelevant ? 1 : 0,
            isUserLabel: true,
            recordedProbability: q.probability,
            isRandomQuestion: q.kind === 'random',
          } as const)
        : this.jobPage(l.pageId, l.isRelevant ? 1 : 0, true);
      if (page) pages.push(page);
    }
    if (!training?.dataset) {
      // No training documents saved: the first judge's most confident pages stand in for them,
      // as many of each class (an unbalanced set would move the model's prior, not its words).
      const confident = (relevance: 'relevant' | 'irrelevant', limit: number) =>
        store
          .queryPages({
            relevance,
            judgeVersion: 0,
            order: relevance === 'relevant' ? 'most-probable' : 'least-probable',
            limit: Math.min(500, limit + labelledIds.size + 50),
          })
          .pages.filter((p) => p.duplicateOf === undefined && !labelledIds.has(p.id))
          .filter((p) =>
            relevance === 'relevant'
              ? p.probability >= this.o.confidentRelevantAt
              : p.probability <= this.o.confidentIrrelevantAt,
          )
          .slice(0, limit);
      const max = this.o.maxPseudoLabels;
      const relevant = confident('relevant', max);
      const irrelevant = confident('irrelevant', max);
      const n = Math.min(relevant.length, irrelevant.length);
      for (const p of relevant.slice(0, n)) {
        const page = this.jobPage(p.id, 1, false);
        if (page) pages.push(page);
      }
      for (const p of irrelevant.slice(0, n)) {
        const page = this.jobPage(p.id, 0, false);
        if (page) pages.push(page);
      }
    }
    // A cluster crawl keeps no pages.warc.gz: each page is in its worker's file (JobPage.warcPath).
    const workerWarc = pages.find((p) => p.warcPath)?.warcPath;
    const warc = store.warcRange(1) ?? (workerWarc ? { path: workerWarc } : undefined);
    if (!warc && labelled.some((l) => !asked.has(l.pageId))) {
      throw new ConfigError(
        'relevance feedback needs the page text from pages.warc.gz; this crawl keeps no WARC',
      );
    }
    const model = (training?.model ?? this.o.keywordCrawlModel) as RetrainJob['model'];
    const job: RetrainJob = {
      model,
      warcPath: warc?.path ?? '',
      pages,
      current: currentDir
        ? { modelDir: currentDir }
        : (this.ctx.judgeName ?? 'keywords') === 'keywords'
          ? { keywords: this.ctx.keywords }
          : { recorded: true },
      threshold: this.ctx.threshold,
      folds: this.o.folds,
      labelWeight: this.o.labelWeight,
      seed: this.o.seed,
      outDir: feedbackModelDir(outDir, version + 1),
    };
    if (training?.dataset) job.dataset = training.dataset;
    if (training?.topic) job.topic = training.topic;
    else if (model === 'kwbilstm' || model === 'fast')
      job.topic = { keywords: this.ctx.keywords, isExpanded: true };
    return job;
  }

  private jobPage(pageId: number, label: 0 | 1, isUserLabel: boolean): JobPage | undefined {
    const located = this.ctx.store.warcRange(pageId);
    const row = this.ctx.store.queryPages({ id: pageId, limit: 1 }).pages[0];
    if (!located || !row) return undefined;
    return {
      url: row.url,
      title: row.title,
      range: located.range,
      warcPath: located.path,
      label,
      isUserLabel,
      recordedProbability: row.probability,
    };
  }
}

async function defaultLoadJudge(dir: string): Promise<PageJudge> {
  const { loadModel } = await import('../relevance/index.js');
  return loadModel(dir);
}
