// Issue 9: does Lim's page relevance (thesis section 5.2.2: RAKE keywords against the search
// words by word-vector similarity) separate relevant from irrelevant pages of the generated web?
// Every 97th page of data/bench/synthetic-hardware.yaml's web, scored as the crawler scores it
// (title and visible text from parseHtml) with the search words of the benchmark (the words of
// the topic's name), the project's GloVe vectors and Lim's default thresholds; percentiles of the
// relevance for each class and the share at or above the thesis' 2/3.
// npx vite-node results/lim-relevance-sample.ts
import { parseHtml } from '../src/html/parse-html.js';
import { createSyntheticWeb } from '../src/sandbox/synthetic-web.js';
import { DEFAULT_LIM_CONFIG } from '../src/strategies/lim/lim-config.js';
import { LimRelevance } from '../src/strategies/lim/lim-relevance.js';
import { KeywordSet, loadWordVectors } from '../src/text/index.js';

const web = createSyntheticWeb({
  seed: 'topic-bench',
  hostCount: 300,
  pageCount: 60000,
  topics: [
    'computer hardware',
    'cooking recipes',
    'football league',
    'gardening plants',
    'jazz music',
    'travel hotels',
    'stock markets',
    'astronomy telescopes',
  ],
  relevantTopic: 'computer hardware',
});
const relevance = new LimRelevance({
  searchWords: new KeywordSet(['computer', 'hardware'], []),
  vectors: await loadWordVectors(),
  similarityThreshold: DEFAULT_LIM_CONFIG.similarityThreshold,
  maxUrlLength: DEFAULT_LIM_CONFIG.maxUrlLength,
});
const scores = { relevant: [] as number[], irrelevant: [] as number[] };
for (let id = 0; id < 60000; id += 97) {
  const ref = web.pageAt(id);
  const url = new URL(web.urlOf(ref.host, ref.index));
  const page = web.renderPage(url.hostname, url.pathname);
  const label = web.labelOf(url.href);
  if (page === undefined || label === undefined) continue;
  const parsed = parseHtml(page.html, url.href);
  const score = relevance.pageRelevance(parsed.title, parsed.text);
  (label ? scores.relevant : scores.irrelevant).push(score);
}
for (const [label, xs] of Object.entries(scores)) {
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (q: number) => (sorted[Math.floor(q * (sorted.length - 1))] as number).toFixed(2);
  const high = xs.filter((x) => x >= DEFAULT_LIM_CONFIG.relevanceThreshold).length;
  console.log(
    `${label}: ${xs.length} pages, relevance 10th / 50th / 90th percentile ${at(0.1)} / ${at(0.5)} / ${at(0.9)}, ${high} (${((100 * high) / xs.length).toFixed(1)}%) at or above 2/3`,
  );
}
