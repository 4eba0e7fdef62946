/**
 * `npm run bench -- pdf`: PDF text extraction as the crawler runs it (one PdfExtractor worker,
 * the crawl's defaults), in PDF pages per second and memory. Two sets: PDFs made here (text and
 * links, `--quick`: fewer), and real PDFs shipped in the DocWeb's Debian packages (the largest
 * `maxRealPdfs` under 5 MiB, when the DocWeb is built). Memory: the process's peak RSS (worker
 * threads included) sampled every 20 ms, against the worker's heap cap; then the largest real PDF
 * again under a 24 MiB heap cap, to show a PDF past the cap fails alone (TRES_PDF_TOO_BIG).
 * Writes results/pdf/pdf-bench.json and .md.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { errorCode } from '../common/errors.js';
import { makePdf, PdfExtractor, type PdfOptions } from '../pdf/index.js';
import { benchEnv, writeResults } from './bench-env.js';

/** Options of {@link runPdfBench}. */
export interface PdfBenchOptions {
  /** Made PDFs, and pages in each. @default 40 and 20 */
  madePdfs?: number;
  madePages?: number;
  /** A DocWeb cache folder with extracted packages; undefined: made PDFs only. */
  docwebCacheDir?: string;
  /** Real PDFs read at most. @default 30 */
  maxRealPdfs?: number;
  outDir: string;
}

interface SetResult {
  name: string;
  pdfs: number;
  failed: number;
  megabytes: number;
  pdfPages: number;
  seconds: number;
  pagesPerSec: number;
  peakRssMiB: number;
  /** Error codes of the PDFs that failed, in order. */
  codes: string[];
}

function findPdfs(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) findPdfs(path, out);
    else if (entry.isFile() && entry.name.toLowerCase().endsWith('.pdf')) out.push(path);
  }
}

const LINE =
  'Focused crawlers learn which links lead to relevant pages; the reward is the relevance of each fetched page.';

async function measure(
  name: string,
  files: { url: string; bytes: Buffer }[],
  options: PdfOptions,
): Promise<SetResult> {
  const extractor = new PdfExtractor(options);
  let peak = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  let pdfPages = 0;
  let failed = 0;
  const codes: string[] = [];
  const start = performance.now();
  try {
    for (const f of files) {
      try {
        pdfPages += (await extractor.extract(f.bytes, f.url)).pagesRead;
      } catch (error) {
        failed++;
        codes.push(errorCode(error));
        console.log(`  ${f.url}: ${errorCode(error)}`);
      }
    }
  } finally {
    clearInterval(sampler);
    await extractor.close();
  }
  const seconds = (performance.now() - start) / 1000;
  return {
    name,
    pdfs: files.length,
    failed,
    megabytes: files.reduce((n, f) => n + f.bytes.length, 0) / 2 ** 20,
    pdfPages,
    seconds,
    pagesPerSec: pdfPages / seconds,
    peakRssMiB: peak / 2 ** 20,
    codes,
  };
}

/** Runs the benchmark; returns the result sets. */
export async function runPdfBench(options: PdfBenchOptions): Promise<SetResult[]> {
  const env = benchEnv();
  const madePdfs = options.madePdfs ?? 40;
  const madePages = options.madePages ?? 20;
  const made = Array.from({ length: madePdfs }, (_, i) => ({
    url: `https://papers.test/p${i}.pdf`,
    bytes: makePdf({
      title: `Report ${i}`,
      pages: Array.from({ length: madePages }, (_, p) => ({
        lines: Array.from({ length: 45 }, (_, l) => `${i}.${p}.${l} ${LINE}`),
        links: [`/p${(i + p) % madePdfs}.pdf`],
      })),
    }),
  }));
  const rssStartMiB = process.memoryUsage.rss() / 2 ** 20;
  const results = [await measure('made (45 lines a page, one link)', made, {})];
  let real: { url: string; bytes: Buffer }[] = [];
  const extract = options.docwebCacheDir ? join(options.docwebCacheDir, 'extract') : undefined;
  if (extract && existsSync(extract)) {
    const paths: string[] = [];
    findPdfs(extract, paths);
    real = paths
      .map((p) => ({ p, size: statSync(p).size }))
      .filter((f) => f.size < 5 * 2 ** 20)
      .sort((a, b) => b.size - a.size || a.p.localeCompare(b.p))
      .slice(0, options.maxRealPdfs ?? 30)
      .map((f) => ({ url: `file://${f.p}`, bytes: readFileSync(f.p) }));
    results.push(await measure('DocWeb (Debian packages, largest under 5 MiB)', real, {}));
  }
  let capped: string | undefined;
  if (real[0]) {
    const first = real[0];
    const r = await measure('largest DocWeb PDF, heap cap 24 MiB', [first], { maxHeapMb: 24 });
    capped =
      r.failed > 0
        ? 'failed as TRES_PDF_TOO_BIG (or invalid), alone'
        : `read in ${r.seconds.toFixed(1)} s within 24 MiB`;
    results.push(r);
  }
  const rows = results.map(
    (r) =>
      `| ${r.name} | ${r.pdfs} | ${r.failed} | ${r.megabytes.toFixed(1)} | ${r.pdfPages} | ${r.seconds.toFixed(1)} | ${r.pagesPerSec.toFixed(1)} | ${r.peakRssMiB.toFixed(0)} |`,
  );
  const md = [
    '# PDF text extraction (pdf.js in one worker thread)',
    '',
    `${env.command} at ${env.commit}, ${env.date}; ${env.cpu}, ${env.cores} cores; node ${env.node}`,
    '',
    `Worker heap cap ${new PdfExtractor().options.maxHeapMb} MiB (PdfOptions.maxHeapMb); process RSS before: ${rssStartMiB.toFixed(0)} MiB.`,
    '',
    '| set | PDFs | failed | MiB | PDF pages | s | pages/s | peak RSS MiB |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    capped ? `Largest DocWeb PDF under a 24 MiB heap cap: ${capped}.` : '',
    '',
  ].join('\n');
  const paths = writeResults(options.outDir, 'pdf-bench', { env, rssStartMiB, results }, md);
  console.log(md);
  console.log(`wrote ${paths.json} and ${paths.md}`);
  return results;
}
