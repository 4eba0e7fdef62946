/**
 * Labelled datasets for the relevance benchmark, irrelevant pages about nine times the relevant
 * ones (as in the papers), every page parsed by the crawler's HTML parser:
 * - cut from seeded synthetic webs of the sandbox, labelled by the web's ground truth, in two
 *   flavours: topic vocabularies of real English words (GloVe neighbours of each topic's name,
 *   so word-vector models have something to read) and the generator's pseudo-words;
 * - cut from the DocWeb (real documentation pages written by people) for the hardware and
 *   five topics of data/topics, drawn by `sampleTrainingData` with the bench seed and labelled
 *   by the topic's rules. They need a built DocWeb cache and are skipped without one.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRng, createSyntheticWeb } from 'tres-crawler';
import type { AnchorInput, LabeledDocument, WordVectors } from 'tres-crawler/internals';
import { isStopword, keywordsOf, parseHtml, SYNTHETIC_WEB_DEFAULTS } from 'tres-crawler/internals';
import { cacheLayout, DEFAULT_TOPICS_DIR, loadTopic, sampleTrainingData } from '../../docweb/index.js';

/** Names of the benchmark datasets. */
export type BenchDatasetName = 'synthetic-words' | 'synthetic-pseudo' | DocwebDatasetName;

/** Names of the datasets cut from the DocWeb: `docweb-` and a topic file of data/topics. */
export type DocwebDatasetName =
  | 'docweb-hardware'
  | 'docweb-statistics'
  | 'docweb-programming-languages'
  | 'docweb-typesetting'
  | 'docweb-system-administration';

/** Every dataset, in report order. */
export const BENCH_DATASET_NAMES: readonly BenchDatasetName[] = [
  'synthetic-words',
  'synthetic-pseudo',
  'docweb-hardware',
  'docweb-statistics',
  'docweb-programming-languages',
  'docweb-typesetting',
  'docweb-system-administration',
];

/** True for the datasets cut from the DocWeb (they need its cache). */
export function isDocwebDataset(name: BenchDatasetName): name is DocwebDatasetName {
  return name.startsWith('docweb-');
}

/** A labelled dataset and the anchors of its pages. */
export interface BenchDataset {
  name: BenchDatasetName;
  documents: LabeledDocument[];
  anchors: AnchorInput[];
  /** Ground truth of each anchor's target page (1 relevant), for the anchor models' quality. */
  anchorLabels: Int8Array;
  /** Seed keywords of the relevant topic (synthetic: the words of its name; DocWeb: the topic file's). */
  seedKeywords: string[];
  /** Keyphrases of the topic (never expanded); [] for the synthetic webs. */
  keyphrases: string[];
  relevantTopic: string;
  /** Page i's out-links are `anchors[anchorStart[i] .. anchorStart[i + 1])`; length documents + 1. */
  anchorStart: Int32Array;
  /** Mean out-links per page (for the crawl-rate estimate). */
  meanLinksPerPage: number;
}

/** Real-word vocabulary of each topic: the nearest GloVe words to the mean of its name's words. */
export function realWordVocabularies(
  topics: readonly string[],
  vectors: WordVectors,
  size: number,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const topic of topics) {
    const mean = new Float32Array(vectors.dim);
    for (const w of keywordsOf(topic)) {
      const v = vectors.get(w);
      const n = vectors.norms[vectors.indexOf(w)] ?? 1;
      if (v) for (let k = 0; k < vectors.dim; k++) mean[k] = (mean[k] as number) + (v[k] as number) / n;
    }
    out[topic] = vectors
      .nearest(mean, size * 2)
      .map((n) => n.word)
      .filter((w) => /^[a-z]{3,}$/.test(w) && !isStopword(w))
      .slice(0, size);
  }
  return out;
}

/**
 * Cuts a dataset of `relevantPages` relevant and `9 * relevantPages` irrelevant pages.
 * @param vectors needed for 'synthetic-words'
 */
export function cutSyntheticDataset(
  name: 'synthetic-words' | 'synthetic-pseudo',
  relevantPages: number,
  seed: string,
  vectors: WordVectors | undefined,
): BenchDataset {
  const topics = [...SYNTHETIC_WEB_DEFAULTS.topics];
  const topicVocabularies =
    name === 'synthetic-words' && vectors ? realWordVocabularies(topics, vectors, 400) : {};
  const pageCount = Math.max(2000, relevantPages * 40);
  const web = createSyntheticWeb({
    seed,
    hostCount: Math.max(20, Math.round(pageCount / 100)),
    pageCount,
    topicVocabularies,
  });
  const relevantUrls: string[] = [];
  const irrelevantUrls: string[] = [];
  for (const label of web.labels()) (label.isRelevant ? relevantUrls : irrelevantUrls).push(label.url);
  const rng = createRng(seed).fork(`cut-${name}`);
  const picked = [
    ...rng.shuffle(relevantUrls).slice(0, relevantPages),
    ...rng.shuffle(irrelevantUrls).slice(0, relevantPages * 9),
  ];
  const documents: LabeledDocument[] = [];
  const anchors: AnchorInput[] = [];
  const anchorLabels: number[] = [];
  const anchorStart: number[] = [];
  for (const url of picked) {
    const u = new URL(url);
    const page = web.renderPage(u.host, u.pathname);
    if (page === undefined || page.status !== 200) continue;
    const parsed = parseHtml(page.html, url);
    anchorStart.push(anchors.length);
    documents.push({
      url,
      title: parsed.title,
      text: parsed.text,
      label: web.labelOf(url) ? 1 : 0,
      source: url,
    });
    for (const link of parsed.links) {
      anchors.push({ url: link.url, anchorText: link.anchorText });
      anchorLabels.push(web.labelOf(link.url) === true ? 1 : 0);
    }
  }
  anchorStart.push(anchors.length);
  return {
    name,
    documents,
    anchors,
    anchorLabels: Int8Array.from(anchorLabels),
    seedKeywords: keywordsOf(web.options.relevantTopic),
    keyphrases: [],
    relevantTopic: web.options.relevantTopic,
    anchorStart: Int32Array.from(anchorStart),
    meanLinksPerPage: anchors.length / Math.max(1, documents.length),
  };
}

/**
 * Why the DocWeb datasets cannot be cut from `cacheDir` (no built cache there), or undefined
 * if they can.
 */
export function docwebUnavailable(cacheDir: string): string | undefined {
  const { dbPath } = cacheLayout(cacheDir);
  if (existsSync(dbPath)) return undefined;
  return `no DocWeb build in ${cacheDir} (${dbPath} missing): build it with \`npm run lab -- docweb build\` or pass --cache DIR`;
}

/**
 * Cuts a DocWeb dataset: `sampleTrainingData` draws `relevantPages` pages the topic labels
 * relevant and nine times as many from sites without a relevant page (seeded, spread over
 * sites), written to a temporary folder that is removed afterwards. Pages keep their DocWeb
 * URL (the "keyword in URL" input sees what the crawl sees) and their whole text: the BiLSTMs
 * read only the first `maxLen` words anyway, and the linear models are linear in the text.
 * Each page's distinct out-links are its anchors, labelled by the topic's rules.
 * @throws ConfigError from the sampler (no build, bad topic file)
 */
export function cutDocwebDataset(
  name: DocwebDatasetName,
  relevantPages: number,
  seed: string,
  cacheDir: string,
): BenchDataset {
  const topic = loadTopic(join(DEFAULT_TOPICS_DIR, `${name.slice('docweb-'.length)}.yaml`));
  const outDir = mkdtempSync(join(tmpdir(), `tres-bench-${name}-`));
  try {
    sampleTrainingData({ topic, outDir, cacheDir, relevant: relevantPages, ratio: 9, seed });
    // manifest.tsv: file, label, url, site; relevant pages first.
    const rows = readFileSync(join(outDir, 'manifest.tsv'), 'utf8').trim().split('\n').slice(1);
    const documents: LabeledDocument[] = [];
    const anchors: AnchorInput[] = [];
    const anchorLabels: number[] = [];
    const anchorStart: number[] = [];
    for (const row of rows) {
      const [file, label, url] = row.split('\t') as [string, string, string];
      const parsed = parseHtml(readFileSync(join(outDir, file), 'utf8'), url);
      anchorStart.push(anchors.length);
      documents.push({
        url,
        title: parsed.title,
        text: parsed.text,
        label: label === 'relevant' ? 1 : 0,
        source: url,
      });
      const seen = new Set<string>();
      for (const link of parsed.links) {
        if (seen.has(link.url)) continue;
        seen.add(link.url);
        anchors.push({ url: link.url, anchorText: link.anchorText });
        anchorLabels.push(topic.labelOf(link.url) ? 1 : 0);
      }
    }
    anchorStart.push(anchors.length);
    return {
      name,
      documents,
      anchors,
      anchorLabels: Int8Array.from(anchorLabels),
      seedKeywords: topic.keywords,
      keyphrases: topic.keyphrases,
      relevantTopic: topic.name,
      anchorStart: Int32Array.from(anchorStart),
      meanLinksPerPage: anchors.length / Math.max(1, documents.length),
    };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/**
 * Cuts any benchmark dataset (see {@link cutSyntheticDataset} and {@link cutDocwebDataset}).
 * @param vectors needed for 'synthetic-words'
 * @param docwebCacheDir DocWeb cache, needed for the DocWeb datasets
 */
export function cutDataset(
  name: BenchDatasetName,
  relevantPages: number,
  seed: string,
  vectors: WordVectors | undefined,
  docwebCacheDir?: string,
): BenchDataset {
  if (isDocwebDataset(name)) {
    if (docwebCacheDir === undefined) throw new RangeError(`dataset ${name} needs the DocWeb cache folder`);
    return cutDocwebDataset(name, relevantPages, seed, docwebCacheDir);
  }
  return cutSyntheticDataset(name, relevantPages, seed, vectors);
}
