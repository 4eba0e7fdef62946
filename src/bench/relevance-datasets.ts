/**
 * Labelled datasets for the relevance benchmark, cut from seeded synthetic webs of the sandbox:
 * pages rendered by the generator, parsed by the crawler's HTML parser, labelled by the web's
 * ground truth, irrelevant pages about nine times the relevant ones (as in the papers).
 * Two flavours: topic vocabularies of real English words (GloVe neighbours of each topic's
 * name, so word-vector models have something to read) and the generator's pseudo-words.
 */
import { createRng } from '../common/rng.js';
import { parseHtml } from '../html/parse-html.js';
import type { AnchorInput, LabeledDocument } from '../relevance/types.js';
import { SYNTHETIC_WEB_DEFAULTS } from '../sandbox/synthetic-options.js';
import { createSyntheticWeb } from '../sandbox/synthetic-web.js';
import { keywordsOf } from '../sandbox/vocabulary.js';
import { isStopword } from '../text/stopwords.js';
import type { WordVectors } from '../text/word-vectors.js';

/** Names of the benchmark datasets. */
export type BenchDatasetName = 'synthetic-words' | 'synthetic-pseudo';

/** A labelled dataset and the anchors of its pages. */
export interface BenchDataset {
  name: BenchDatasetName;
  documents: LabeledDocument[];
  anchors: AnchorInput[];
  /** Ground truth of each anchor's target page (1 relevant), for the anchor models' quality. */
  anchorLabels: Int8Array;
  /** Seed keywords of the relevant topic (the words of its name). */
  seedKeywords: string[];
  relevantTopic: string;
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
export function cutDataset(
  name: BenchDatasetName,
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
  for (const url of picked) {
    const u = new URL(url);
    const page = web.renderPage(u.host, u.pathname);
    if (page === undefined || page.status !== 200) continue;
    const parsed = parseHtml(page.html, url);
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
  return {
    name,
    documents,
    anchors,
    anchorLabels: Int8Array.from(anchorLabels),
    seedKeywords: keywordsOf(web.options.relevantTopic),
    relevantTopic: web.options.relevantTopic,
    meanLinksPerPage: anchors.length / Math.max(1, documents.length),
  };
}
