/**
 * The speed measurements of the relevance benchmark: page and anchor throughput of a saved
 * model per TensorFlow.js backend, and the crawl loop's classifier work with the default models.
 */
import type { Rng } from 'tres-crawler';
import type { ModelName, WordVectors } from 'tres-crawler/internals';
import {
  confusion,
  DEFAULT_ANCHOR_MODEL,
  DEFAULT_PAGE_MODEL,
  ensureTfBackend,
  loadModel,
  metricsOf,
  type TfBackendName,
} from 'tres-crawler/internals';
import type { BenchDataset } from './relevance-datasets.js';

/** Throughput of one model (trained on the first fold's training pages). */
export interface Throughput {
  model: ModelName;
  backend: TfBackendName | null;
  /** Training time of that fold's model, in milliseconds. */
  trainMs: number;
  pagesPerSec: number;
  anchorsPerSec: number;
  /**
   * Pages per second of this process's CPU time (user + system, all threads): what one core
   * sustains, less sensitive than wall time to other work on a shared machine.
   */
  pagesPerCpuSec: number;
  /** Anchors per second of CPU time. */
  anchorsPerCpuSec: number;
  /** Macro F1 of anchor scores against the ground truth of the link targets. */
  anchorMacroF1: number;
}

/** The crawl loop's classifier work, measured: per step one page, then its out-links. */
export interface CrawlLoopRate {
  pageModel: ModelName;
  anchorModel: ModelName;
  steps: number;
  meanAnchorsPerStep: number;
  pageMsPerStep: number;
  anchorMsPerStep: number;
  /** Pages per second the classifiers sustain (other crawl work not included). */
  pagesPerSec: number;
  /** The same per second of this process's CPU time (see {@link Throughput.pagesPerCpuSec}). */
  pagesPerCpuSec: number;
}

/** Seconds of CPU time this process has used (user + system). */
function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** True for the TensorFlow.js models (their speed depends on the backend). */
export const isTfModel = (name: ModelName) => name === 'kwbilstm' || name === 'bilstm';

/** Up to `cap` indices of 0..n-1, a seeded sample in increasing order. */
export function sampleIndices(n: number, cap: number, rng: Rng): number[] {
  const all = Array.from({ length: n }, (_, i) => i);
  return n <= cap
    ? all
    : rng
        .shuffle(all)
        .slice(0, cap)
        .sort((a, b) => a - b);
}

/** Page and anchor throughput and anchor quality of the model saved in `dir`, per backend. */
export async function measureThroughput(
  dir: string,
  name: ModelName,
  trainMs: number,
  data: BenchDataset,
  sample: { pages: readonly number[]; anchors: readonly number[] },
  backends: readonly TfBackendName[],
  vectors: WordVectors,
): Promise<Throughput[]> {
  const pages = sample.pages.map((i) => data.documents[i] as (typeof data.documents)[number]);
  const anchors = sample.anchors.map((i) => data.anchors[i] as (typeof data.anchors)[number]);
  const out: Throughput[] = [];
  for (const backend of isTfModel(name) ? backends : [undefined]) {
    const info = backend ? await ensureTfBackend(backend) : undefined;
    const model = await loadModel(dir, { vectors });
    await model.scorePages(pages.slice(0, 8)); // warm-up (kernels, caches)
    let t = performance.now();
    let c = cpuSeconds();
    await model.scorePages(pages);
    const pagesPerSec = pages.length / ((performance.now() - t) / 1000);
    const pagesPerCpuSec = pages.length / (cpuSeconds() - c);
    t = performance.now();
    c = cpuSeconds();
    const probs = await model.scoreAnchors(anchors);
    const anchorsPerSec = anchors.length / ((performance.now() - t) / 1000);
    const anchorsPerCpuSec = anchors.length / (cpuSeconds() - c);
    model.dispose();
    const labels = sample.anchors.map((i) => data.anchorLabels[i] as number);
    const anchorMacroF1 = metricsOf(confusion(labels, probs)).macroF1;
    out.push({
      model: name,
      backend: info?.name ?? null,
      trainMs,
      pagesPerSec,
      anchorsPerSec,
      pagesPerCpuSec,
      anchorsPerCpuSec,
      anchorMacroF1,
    });
  }
  if (isTfModel(name)) await ensureTfBackend(backends[0]);
  return out;
}

/**
 * Scores one page, then its out-links, per step, as `processFetch` does, over seeded pages;
 * undefined if a default model is not in `dirs`.
 */
export async function measureCrawlLoop(
  dirs: Map<ModelName, string>,
  data: BenchDataset,
  steps: number,
  vectors: WordVectors,
  rng: Rng,
): Promise<CrawlLoopRate | undefined> {
  const pageDir = dirs.get(DEFAULT_PAGE_MODEL);
  const anchorDir = dirs.get(DEFAULT_ANCHOR_MODEL);
  if (pageDir === undefined || anchorDir === undefined) return undefined;
  const pageModel = await loadModel(pageDir, { vectors });
  const anchorModel = await loadModel(anchorDir, { vectors });
  const order = rng.shuffle(Array.from({ length: data.documents.length }, (_, i) => i));
  const step = async (i: number): Promise<[number, number, number]> => {
    const links = data.anchors.slice(data.anchorStart[i], data.anchorStart[i + 1]);
    const t0 = performance.now();
    await pageModel.scorePages([data.documents[i] as (typeof data.documents)[number]]);
    const t1 = performance.now();
    if (links.length > 0) await anchorModel.scoreAnchors(links);
    return [t1 - t0, performance.now() - t1, links.length];
  };
  for (const i of order.slice(0, 3)) await step(i); // warm-up
  let pageMs = 0;
  let anchorMs = 0;
  let anchorCount = 0;
  const n = Math.min(steps, order.length);
  const cpuAtStart = cpuSeconds();
  for (const i of order.slice(0, n)) {
    const [p, a, count] = await step(i);
    pageMs += p;
    anchorMs += a;
    anchorCount += count;
  }
  const cpuUsed = cpuSeconds() - cpuAtStart;
  pageModel.dispose();
  anchorModel.dispose();
  return {
    pageModel: DEFAULT_PAGE_MODEL,
    anchorModel: DEFAULT_ANCHOR_MODEL,
    steps: n,
    meanAnchorsPerStep: anchorCount / n,
    pageMsPerStep: pageMs / n,
    anchorMsPerStep: anchorMs / n,
    pagesPerSec: n / ((pageMs + anchorMs) / 1000),
    pagesPerCpuSec: n / cpuUsed,
  };
}
