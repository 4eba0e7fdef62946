/**
 * One retraining of the page model from relevance feedback, as the worker thread runs it: read
 * the labelled pages' text back from the crawl's WARC file, train the model on its training set
 * plus the labels, check it by stratified k-fold cross-validation over the user's labels against
 * the judge in use, and save it only if it is not worse (macro F1 on the held-out labels).
 *
 * Which held-out labels decide: when the crawl asked questions about pages drawn at random
 * (question-selector.ts), only their answers, a uniform sample of the crawl's pages. The other
 * answers are pages the judge was unsure of, mostly irrelevant ones near the threshold: a model
 * trained on them beats the judge there easily and can still call more of the crawl's pages
 * relevant wrongly. Until the random answers hold 2 of each class the retrained model waits.
 * Labels given in the dashboard alone (no random questions) decide all together, as before any
 * better sample exists.
 *
 * Training set: a model crawl (`tres crawl --model DIR`) uses the documents `tres train` read
 * (their paths are in DIR/training.json, field `dataset`). A keyword-judged crawl has none: its
 * training set is the keyword judge's most confident pages of the crawl (pseudo-labels, as many
 * of each class), and the model trained is the linear SVM on TF-IDF or naive Bayes (no word
 * vectors to load; seconds to train).
 */
import { rmSync } from 'node:fs';
import { createRng } from '../common/index.js';
import { KeywordJudge } from '../crawl/index.js';
import { parseHtml } from '../html/index.js';
import {
  confusion,
  type DatasetSource,
  type LabeledDocument,
  loadDataset,
  loadModel,
  type ModelName,
  metricsOf,
  type PageInput,
  stratifiedFolds,
  type TopicSpec,
  trainModel,
} from '../relevance/index.js';
import { readWarcResponse, responseHtml } from '../store/index.js';

/** A page of the crawl to train on: its text, or where it is in the WARC file. */
export interface JobPage {
  url: string;
  title: string;
  /** The page's text when the job carries it (an answered question keeps it); else read from the WARC. */
  text?: string;
  /** Byte range of the page's WARC records in `warcPath` (the page's own, else the job's). */
  range?: [number, number];
  /** The WARC file of this page when not the job's (a cluster worker's file). */
  warcPath?: string;
  label: 0 | 1;
  /** True for a user's label, false for a pseudo-label (keyword judge's confident page). */
  isUserLabel: boolean;
  /** Probability the page was recorded with (the judge of its fetch). */
  recordedProbability: number;
  /** True for the answer to a question about a page drawn at random among the crawl's pages. */
  isRandomQuestion?: boolean;
}

/** Everything the worker needs; plain data (structured-clone safe). */
export interface RetrainJob {
  /** Kind of model to train. */
  model: ModelName;
  /** The crawl's WARC file; '' when it keeps none (then every page carries its text). */
  warcPath: string;
  pages: JobPage[];
  /** Training documents of the current model (a model crawl), if any. */
  dataset?: DatasetSource;
  /** Topic keywords for models that read them. */
  topic?: TopicSpec;
  /**
   * The judge in use: a saved model folder, the keyword judge's words, or `recorded` for a judge
   * the job cannot load (one the library was given as an object): the probabilities it recorded.
   */
  current: { modelDir: string } | { keywords: string[] } | { recorded: true };
  /** Reward threshold of the crawl. */
  threshold: number;
  /** Most folds of the cross-validation (fewer when a class has fewer labels). */
  folds: number;
  /** Copies of each user label in the training set (weight of a label against a document). */
  labelWeight: number;
  /** Seed of the folds and of training. */
  seed: string;
  /** Folder the new model is saved to when it is not worse. */
  outDir: string;
}

/** Metrics of the cross-validation over the user's labels (pooled over folds). */
export interface FeedbackScore {
  precision: number;
  recall: number;
  macroF1: number;
  accuracy: number;
}

/** What a retraining found. */
export interface RetrainResult {
  /** True if the new model was saved to `outDir` (not worse than the current judge). */
  isAccepted: boolean;
  /**
   * The labels `before` and `after` are measured on: `random`, the answers to questions about
   * pages drawn at random; `all`, every user label (no random questions were asked).
   */
  checkedOn: 'random' | 'all';
  /** Why a model no worse was still not accepted, in words. */
  refusedBecause?: string;
  /** The current judge on the held-out labels of each fold. */
  before: FeedbackScore;
  /** The retrained model on the same held-out labels. */
  after: FeedbackScore;
  folds: number;
  userLabels: number;
  /** Training documents besides the labels (dataset or pseudo-labels). */
  trainingDocuments: number;
  /** Per labelled page: the probability it was recorded with and the new model's. */
  pages: { url: string; label: 0 | 1; before: number; after: number }[];
  trainMs: number;
}

/**
 * Runs the job.
 * @throws RangeError when the labels hold fewer than 2 pages of either class (nothing to check).
 */
export async function runRetrainJob(job: RetrainJob): Promise<RetrainResult> {
  const started = performance.now();
  const docs = job.pages.map((p) => toDocument(job.warcPath, p));
  const user = docs.filter((_, i) => job.pages[i]?.isUserLabel);
  const userPages = job.pages.filter((p) => p.isUserLabel);
  const pseudo = docs.filter((_, i) => !job.pages[i]?.isUserLabel);
  const base = [
    ...(job.dataset ? loadDataset(job.dataset, { isSkippingBad: true, onWarning: () => {} }) : []),
    ...pseudo,
  ];
  const labels = Int8Array.from(user, (d) => d.label);
  const relevant = labels.reduce((n, l) => n + l, 0);
  const k = Math.min(job.folds, relevant, labels.length - relevant);
  if (k < 2) {
    throw new RangeError(
      `retraining needs at least 2 relevant and 2 irrelevant labels (have ${relevant} and ${labels.length - relevant})`,
    );
  }
  const folds = stratifiedFolds(labels, k, createRng(job.seed).fork('feedback-folds'));
  const current = await currentJudge(job);
  const beforeP =
    current === 'recorded' ? Float32Array.from(userPages, (p) => p.recordedProbability) : await current(user);
  const afterP = new Float32Array(user.length);
  const config = { seed: job.seed, threshold: job.threshold };
  for (let f = 0; f < k; f++) {
    const train = [...base];
    const test: number[] = [];
    user.forEach((d, i) => {
      if (folds[i] === f) test.push(i);
      else for (let c = 0; c < job.labelWeight; c++) train.push(d);
    });
    const trained = await trainModel(job.model, train, {
      config: { ...config, seed: `${job.seed}/fold${f}` },
      ...(job.topic ? { topic: job.topic } : {}),
    });
    const scores = await trained.model.scorePages(test.map((i) => user[i] as PageInput));
    test.forEach((i, j) => {
      afterP[i] = scores[j] as number;
    });
    trained.model.dispose();
  }
  const randomAt = userPages.flatMap((p, i) => (p.isRandomQuestion ? [i] : []));
  const checkedOn = randomAt.length > 0 ? 'random' : 'all';
  const checkAt = checkedOn === 'random' ? randomAt : userPages.map((_, i) => i);
  const checkLabels = Int8Array.from(checkAt, (i) => labels[i] as number);
  const scoredAt = (p: Float32Array) => Float32Array.from(checkAt, (i) => p[i] as number);
  const before = metricsOf(confusion(checkLabels, scoredAt(beforeP), job.threshold));
  const after = metricsOf(confusion(checkLabels, scoredAt(afterP), job.threshold));
  const randomRelevant = checkLabels.reduce((n, l) => n + l, 0);
  const randomIrrelevant = checkLabels.length - randomRelevant;
  const refusedBecause =
    checkedOn === 'random' && (randomRelevant < 2 || randomIrrelevant < 2)
      ? `the answers to random questions hold ${randomRelevant} relevant and ${randomIrrelevant} irrelevant pages; a retrained judge is checked on 2 of each at least`
      : undefined;
  const isAccepted = refusedBecause === undefined && after.macroF1 >= before.macroF1;
  if (isAccepted) {
    const train = [...base];
    for (const d of user) for (let c = 0; c < job.labelWeight; c++) train.push(d);
    const trained = await trainModel(job.model, train, {
      config,
      ...(job.topic ? { topic: job.topic } : {}),
    });
    rmSync(job.outDir, { recursive: true, force: true });
    await trained.model.save(job.outDir);
    trained.model.dispose();
  }
  return {
    isAccepted,
    checkedOn,
    ...(refusedBecause ? { refusedBecause } : {}),
    before,
    after,
    folds: k,
    userLabels: user.length,
    trainingDocuments: base.length,
    pages: userPages.map((p, i) => ({
      url: p.url,
      label: p.label,
      before: p.recordedProbability,
      after: afterP[i] as number,
    })),
    trainMs: performance.now() - started,
  };
}

/** The page's text as the crawl's judge saw it: carried by the job, or from its WARC response record. */
function toDocument(warcPath: string, p: JobPage): LabeledDocument {
  if (p.text !== undefined)
    return { url: p.url, title: p.title, text: p.text, label: p.label, source: p.url };
  if (p.range === undefined) throw new RangeError(`no text of ${p.url}: neither carried nor in a WARC file`);
  const response = readWarcResponse(p.warcPath ?? warcPath, p.range[0], p.range[1]);
  let text = '';
  let title = p.title;
  if (response && response.body.length > 0) {
    const parsed = parseHtml(responseHtml(response), response.targetUri);
    text = parsed.text;
    title = parsed.title || title;
  }
  return { url: p.url, title, text, label: p.label, source: p.url };
}

async function currentJudge(
  job: RetrainJob,
): Promise<((docs: readonly PageInput[]) => Promise<Float32Array>) | 'recorded'> {
  if ('recorded' in job.current) return 'recorded';
  if ('modelDir' in job.current) {
    const model = await loadModel(job.current.modelDir);
    return async (docs) => {
      const out = await model.scorePages(docs);
      model.dispose();
      return out;
    };
  }
  const judge = new KeywordJudge({ keywords: job.current.keywords });
  return (docs) => judge.scorePages(docs);
}
