/**
 * `npm run bench -- feedback`: relevance feedback on a DocWeb crawl. A keyword-judged crawl of a
 * topic runs with its dashboard; at `labelAtStep` pages it is paused and 50 pages get labels
 * from the topic's ground truth through the REST API (POST /api/labels, half among pages the
 * judge called relevant, half among the others, drawn with a seeded RNG), which retrains the page
 * model in the background (POST /api/retrain if the labels did not start it). Then:
 * - on every page fetched so far except the labelled ones, the keyword judge and the retrained
 *   model are scored against the ground truth (precision, recall of the relevant class);
 * - the crawl resumes to `maxPages` with the retrained judge, and the same comparison is made on
 *   the pages fetched after the swap (which neither judge has seen).
 * Screenshots of the dashboard (before the labels, after the retraining) go beside the results
 * when Debian's chromium is installed. Results: results/ui/feedback.json and feedback.md.
 */

import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Crawler, createRng, createStrategy, KeywordJudge, type RetrainReport } from 'tres-crawler';
import {
  CrawlMonitor,
  DEFAULT_FEEDBACK_OPTIONS,
  feedbackModelDir,
  KeywordSet,
  liveSource,
  loadModel,
  RelevanceFeedback,
  readPageText,
  startDashboard,
  withCrawlReader,
} from 'tres-crawler/internals';
import { benchEnv } from '../bench-env.js';
import { openBenchWeb, WebScopeStrategy } from '../crawl/index.js';

/** Options of {@link runFeedbackBench}. */
export interface FeedbackBenchOptions {
  /** Topic file (a DocWeb topic). @default data/topics/hardware.yaml */
  topicFile?: string;
  /** DocWeb cache folder. @default the DocWeb default */
  cacheDir?: string;
  /** Pages before the labels. @default 800 */
  labelAtStep?: number;
  /** Page budget of the whole crawl. @default 2000 */
  maxPages?: number;
  /** Labels given through the API. @default 50 */
  labels?: number;
  /** Fetches in flight. @default 8 */
  concurrency?: number;
  /** Seed of the crawl and of the label draw. @default 1 */
  seed?: number;
  /** Copies of each label in the training set (see FeedbackOptions). @default the feedback default */
  labelWeight?: number;
  /** Model of a keyword-judged crawl's retraining. @default the feedback default */
  keywordCrawlModel?: 'nb' | 'svm';
  /** Where results and screenshots go. */
  outDir: string;
  command?: string;
}

interface JudgeScore {
  pages: number;
  truePositives: number;
  predictedRelevant: number;
  actuallyRelevant: number;
  precision: number;
  recall: number;
}

function score(labels: boolean[], probabilities: ArrayLike<number>, threshold: number): JudgeScore {
  let tp = 0;
  let predicted = 0;
  let actual = 0;
  labels.forEach((isRelevant, i) => {
    const isPredicted = (probabilities[i] as number) >= threshold;
    if (isPredicted) predicted++;
    if (isRelevant) actual++;
    if (isPredicted && isRelevant) tp++;
  });
  return {
    pages: labels.length,
    truePositives: tp,
    predictedRelevant: predicted,
    actuallyRelevant: actual,
    precision: predicted === 0 ? 0 : tp / predicted,
    recall: actual === 0 ? 0 : tp / actual,
  };
}

/** Runs the benchmark; resolves to what it wrote to feedback.json. */
export async function runFeedbackBench(options: FeedbackBenchOptions): Promise<unknown> {
  const o = {
    topicFile: join('data', 'topics', 'hardware.yaml'),
    labelAtStep: 800,
    maxPages: 2000,
    labels: 50,
    concurrency: 8,
    seed: 1,
    ...options,
  };
  mkdirSync(o.outDir, { recursive: true });
  const web = await openBenchWeb(o.topicFile, o.cacheDir ? { cacheDir: o.cacheDir } : {});
  const work = mkdtempSync(join(tmpdir(), 'tres-feedback-'));
  const crawlDir = join(work, 'crawl');
  const threshold = 0.5;
  const topic = web.topic;
  const isRelevant = (url: string) => topic.labelOf(url);
  try {
    const crawler = new Crawler({
      outDir: crawlDir,
      keywords: topic.keywords,
      // Closed world, as the crawl benchmark: links to hosts the web does not serve are dropped.
      strategy: new WebScopeStrategy(
        createStrategy('best-first', {
          rng: createRng(o.seed).fork('strategy'),
          keywords: new KeywordSet(topic.keywords, []),
        }),
        web.servedHosts,
        true,
      ),
      seed: o.seed,
      maxPages: o.maxPages,
      maxConcurrency: o.concurrency,
      net: web.net,
      urlFilter: web.urlFilter,
      progressIntervalMs: 250,
    });
    const monitor = new CrawlMonitor().attach(crawler);
    crawler.on('page', (p) => {
      if (p.step === o.labelAtStep) crawler.pause();
    });
    const seeds = topic.seeds.slice(0, 3);
    const done = crawler.run(seeds);
    const store = crawler.openStore!;
    const feedback = new RelevanceFeedback(
      { crawler, store, outDir: crawlDir, threshold, keywords: topic.keywords },
      {
        retrainAfterLabels: o.labels,
        seed: `feedback/${o.seed}`,
        ...(o.labelWeight === undefined ? {} : { labelWeight: o.labelWeight }),
        ...(o.keywordCrawlModel === undefined ? {} : { keywordCrawlModel: o.keywordCrawlModel }),
      },
    );
    const dashboard = await startDashboard(
      liveSource({ crawler, store, monitor, feedback, strategy: 'best-first', outDir: crawlDir }),
      { port: 0 },
    );
    const shots = await screenshotter(dashboard.url, o.outDir);
    console.log(`feedback bench: ${topic.name} on ${web.description}; dashboard ${dashboard.url}`);
    while (!crawler.isPaused || crawler.progress().inFlight > 0) await sleep(50);
    await shots?.take('dashboard-crawling.png');

    // 50 labels from the ground truth through the REST API.
    const listed = store
      .queryPages({ limit: 500, offset: 0 })
      .pages.concat(store.queryPages({ limit: 500, offset: 500 }).pages)
      .filter((p) => p.isPage && p.duplicateOf === undefined);
    const rng = createRng(`labels/${o.seed}`);
    const shuffle = <T>(xs: T[]) => {
      const a = xs.slice();
      for (let i = a.length - 1; i > 0; i--) {
        const j = Math.floor(rng.next() * (i + 1));
        [a[i], a[j]] = [a[j] as T, a[i] as T];
      }
      return a;
    };
    const judgedRelevant = shuffle(listed.filter((p) => p.reward > 0));
    const judgedNot = shuffle(listed.filter((p) => p.reward === 0));
    const half = Math.min(Math.floor(o.labels / 2), judgedRelevant.length);
    const chosen = [...judgedRelevant.slice(0, half), ...judgedNot.slice(0, o.labels - half)];
    const api = (path: string, body: unknown) =>
      fetch(`${dashboard.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (r) => {
        if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
        return r.json();
      });
    for (const p of chosen) await api('api/labels', { pageId: p.id, isRelevant: isRelevant(p.finalUrl) });
    if (!feedback.status().isTraining) await api('api/retrain', {});
    const started = Date.now();
    while (feedback.status().isTraining) await sleep(100);
    const report = feedback.status().history.at(-1) as RetrainReport | { error: string };
    if ('error' in report) throw new Error(`retraining failed: ${report.error}`);
    console.log(
      `retrained in ${((Date.now() - started) / 1000).toFixed(1)} s: macro F1 ${report.before.macroF1.toFixed(3)} -> ${report.after.macroF1.toFixed(3)} (${report.isAccepted ? 'swapped in' : 'kept'})`,
    );
    await shots?.take('dashboard-after-retrain.png', '#feedback');

    const labelledIds = new Set(chosen.map((p) => p.id));
    crawler.resume();
    const summary = await done;
    await shots?.close();
    await dashboard.close();

    // Both judges on the same pages, against the ground truth.
    const keyword = new KeywordJudge({ keywords: topic.keywords });
    const model = report.isAccepted ? await loadModel(feedbackModelDir(crawlDir, report.version)) : undefined;
    const before: { url: string; title: string; text: string; truth: boolean }[] = [];
    const after: typeof before = [];
    withCrawlReader(crawlDir, (reader) => {
      for (const p of reader.pages()) {
        if (!p.isPage || p.duplicateOf !== undefined || labelledIds.has(p.id) || !p.warcRange) continue;
        const doc = {
          url: p.finalUrl,
          title: p.title ?? '',
          text: readPageText(join(crawlDir, 'pages.warc.gz'), p.warcRange[0], p.warcRange[1]),
          truth: isRelevant(p.finalUrl),
        };
        ((p.judgeVersion ?? 0) === 0 ? before : after).push(doc);
      }
    });
    const compare = async (docs: typeof before) => {
      const truth = docs.map((d) => d.truth);
      const kw = score(truth, await keyword.scorePages(docs), threshold);
      const nb = model ? score(truth, await model.scorePages(docs), threshold) : undefined;
      return { keywordJudge: kw, retrainedModel: nb ?? null };
    };
    const result = {
      env: benchEnv(),
      command: o.command ?? 'npm run bench -- feedback',
      config: { ...o, outDir: undefined, threshold, seeds },
      topic: topic.name,
      web: web.description,
      summary: { steps: summary.steps, stopReason: summary.stopReason, relevant: summary.relevant },
      labels: {
        given: chosen.length,
        relevantByTruth: chosen.filter((p) => isRelevant(p.finalUrl)).length,
        judgedRelevant: half,
      },
      labelWeight: o.labelWeight ?? DEFAULT_FEEDBACK_OPTIONS.labelWeight,
      model:
        (o.keywordCrawlModel ?? DEFAULT_FEEDBACK_OPTIONS.keywordCrawlModel) === 'svm'
          ? 'linear SVM (TF-IDF)'
          : 'naive Bayes',
      retraining: { ...report, pages: undefined },
      heldOutPagesBeforeSwap: await compare(before),
      pagesAfterSwap: await compare(after),
    };
    writeFileSync(join(o.outDir, 'feedback.json'), `${JSON.stringify(result, null, 2)}\n`);
    writeFileSync(join(o.outDir, 'feedback.md'), feedbackMarkdown(result));
    console.log(feedbackMarkdown(result));
    return result;
  } finally {
    await web.close();
    rmSync(work, { recursive: true, force: true });
  }
}

function feedbackMarkdown(r: {
  command: string;
  topic: string;
  web: string;
  labels: { given: number; relevantByTruth: number; judgedRelevant: number };
  labelWeight: number;
  model: string;
  retraining: Omit<RetrainReport, 'pages'>;
  heldOutPagesBeforeSwap: { keywordJudge: JudgeScore; retrainedModel: JudgeScore | null };
  pagesAfterSwap: { keywordJudge: JudgeScore; retrainedModel: JudgeScore | null };
  summary: { steps: number };
}): string {
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const line = (name: string, s: JudgeScore | null) =>
    s
      ? `| ${name} | ${s.pages} | ${s.predictedRelevant} | ${s.truePositives} | ${pct(s.precision)} | ${pct(s.recall)} |`
      : `| ${name} | – | – | – | – | – |`;
  const t = r.retraining;
  return [
    `# Relevance feedback: ${r.labels.given} labels through the REST API (${r.topic})`,
    '',
    `Command: \`${r.command}\`. Web: ${r.web}. Crawl of ${r.summary.steps} pages (best-first, keyword judge),`,
    `paused for the labels; ${r.labels.given} pages labelled from the topic's ground truth (${r.labels.judgedRelevant} among pages the`,
    `keyword judge called relevant, the rest among the others; ${r.labels.relevantByTruth} truly relevant).`,
    '',
    `Retraining (${r.model} on the labels x${r.labelWeight} plus the keyword judge's confident pages, ${t.trainingDocuments} documents),`,
    `${t.folds}-fold cross-validation over the labels: macro F1 ${t.before.macroF1.toFixed(3)} (keyword judge) -> ${t.after.macroF1.toFixed(3)} (retrained),`,
    `precision ${pct(t.before.precision)} -> ${pct(t.after.precision)}: ${t.isAccepted ? `swapped in as judge v${t.version}` : 'not better, kept the keyword judge'}.`,
    '',
    'Precision and recall of the relevant class against the ground truth (threshold 0.5):',
    '',
    '| judge | pages | judged relevant | truly relevant among them | precision | recall |',
    '|---|---|---|---|---|---|',
    `| **pages fetched before the labels (labelled pages left out)** | | | | | |`,
    line('keyword judge', r.heldOutPagesBeforeSwap.keywordJudge),
    line('retrained model', r.heldOutPagesBeforeSwap.retrainedModel),
    `| **pages fetched after the swap** | | | | | |`,
    line('keyword judge', r.pagesAfterSwap.keywordJudge),
    line("retrained model (the crawl's judge)", r.pagesAfterSwap.retrainedModel),
    '',
  ].join('\n');
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Screenshots of the dashboard with Debian's chromium, when installed. */
async function screenshotter(url: string, dir: string) {
  const path = '/usr/bin/chromium';
  if (!existsSync(path)) {
    console.log(`no screenshots: ${path} is not installed`);
    return undefined;
  }
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: path, args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.goto(url);
  return {
    async take(name: string, waitFor?: string) {
      await page.reload();
      await page.locator('#pages tbody tr').first().waitFor();
      if (waitFor) await page.locator(`${waitFor} tbody tr`).first().waitFor();
      await sleep(2500); // one poll of every panel
      await page.screenshot({ path: join(dir, name), fullPage: true });
    },
    close: () => browser.close(),
  };
}
