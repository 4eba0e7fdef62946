/**
 * `npm run bench -- pdf`: PDF text extraction as the crawler runs it (one PdfExtractor child
 * process, the crawl's defaults), in PDF pages per second and memory. Two sets: PDFs made here
 * (text and links, `--quick`: fewer), and real PDFs shipped in the DocWeb's Debian packages (the
 * largest `maxRealPdfs` under 5 MiB, when the DocWeb is built). Memory: the peak RSS of the
 * process and its PDF child process together (Linux /proc) sampled every 20 ms, against the caps;
 * then the largest real PDF again under a 24 MiB heap cap; then two small PDFs made to exhaust the
 * child's memory (testing/src/make-pdf.ts `makeHungryPdf`: one past the heap cap, one inflating past the
 * buffer cap), each followed by an ordinary PDF, to show each fails alone as TRES_PDF_TOO_BIG
 * before the time limit, a fresh child reads the next, and memory stays bounded.
 * Writes results/pdf/pdf-bench.json and .md.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { errorCode } from 'tres-crawler';
import {
  DEFAULT_PDF_OPTIONS,
  PdfExtractor,
  type PdfOptions,
  resolvePdfOptions,
} from 'tres-crawler/internals';
import { makeHungryPdf, makePdf } from 'tres-testing';
import { benchEnv, writeResults } from '../bench-env.js';

/** Options of {@link runPdfBench}. */
export interface PdfBenchOptions {
  /** Made PDFs, and pages in each. @default 40 and 20 */
  madePdfs?: number;
  madePages?: number;
  /** A DocWeb cache folder with extracted packages; undefined: made PDFs only. */
  docwebCacheDir?: string;
  /** Real PDFs read at most. @default 30 */
  maxRealPdfs?: number;
  /**
   * Characters of the PDF past the heap cap, and bytes of spaces of the one past the buffer cap.
   * @default 24 million (the array of its characters grows past a 256 MiB heap: 16 million slots
   *   of 8 bytes are copied into 24 million) and 1 GiB
   */
  hungryChars?: number;
  inflatedBytes?: number;
  /** PDF options of the memory-bound runs (smaller caps for the harness test). @default {} (the crawl's) */
  boundOptions?: PdfOptions;
  outDir: string;
}

interface SetResult {
  name: string;
  /** Seconds until each PDF was read or failed, in order. */
  perPdfSeconds: number[];
  /** 'read' or the error code, of each PDF in order. */
  outcomes: string[];
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

/** Resident bytes of process `pid` (Linux /proc; 0 when it is gone or unreadable). */
function childRss(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? 0 : Number(kb) * 1024;
  } catch {
    return 0;
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
  const rssNow = () => process.memoryUsage.rss() + extractor.pids.reduce((n, pid) => n + childRss(pid), 0);
  let peak = rssNow();
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssNow());
  }, 20);
  let pdfPages = 0;
  let failed = 0;
  const codes: string[] = [];
  const perPdfSeconds: number[] = [];
  const outcomes: string[] = [];
  const start = performance.now();
  try {
    for (const f of files) {
      const pdfStart = performance.now();
      try {
        pdfPages += (await extractor.extract(f.bytes, f.url)).pagesRead;
        outcomes.push('read');
      } catch (error) {
        failed++;
        outcomes.push(errorCode(error));
        codes.push(errorCode(error));
        console.log(`  ${f.url}: ${errorCode(error)}`);
      }
      perPdfSeconds.push((performance.now() - pdfStart) / 1000);
    }
  } finally {
    clearInterval(sampler);
    await extractor.close();
  }
  const seconds = (performance.now() - start) / 1000;
  return {
    name,
    perPdfSeconds,
    outcomes,
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
        ? `failed as ${r.codes[0]} after ${r.seconds.toFixed(1)} s, alone`
        : `read in ${r.seconds.toFixed(1)} s within 24 MiB`;
    results.push(r);
  }
  // The memory bound, under the crawl's default caps: each hungry PDF, then an ordinary one.
  const hungryChars = options.hungryChars ?? 24_000_000;
  const inflatedBytes = options.inflatedBytes ?? 2 ** 30;
  const boundCaps = resolvePdfOptions(options.boundOptions);
  const ordinary = made[0] as { url: string; bytes: Buffer };
  const bound: { label: string; pdfBytes: number; result: SetResult }[] = [];
  for (const [label, url, bytes] of [
    [
      `one string of ${(hungryChars / 1e6).toFixed(0)} million characters`,
      'https://papers.test/long-string.pdf',
      makeHungryPdf('long-string', hungryChars),
    ],
    [
      `${(inflatedBytes / 2 ** 20).toFixed(0)} MiB of compressed spaces`,
      'https://papers.test/inflating.pdf',
      makeHungryPdf('inflating', inflatedBytes),
    ],
  ] as const) {
    const result = await measure(
      `made to exhaust memory: ${label}, then an ordinary PDF`,
      [{ url, bytes }, ordinary],
      options.boundOptions ?? {},
    );
    bound.push({ label, pdfBytes: bytes.length, result });
    results.push(result);
  }
  const boundLines = bound.map(
    ({ label, pdfBytes, result: r }) =>
      `- ${label} (a ${(pdfBytes / 1024).toFixed(0)} kB PDF): ${r.outcomes[0]} after ${(r.perPdfSeconds[0] ?? 0).toFixed(1)} s (time limit ${boundCaps.timeoutMs / 1000} s); the ordinary PDF after it: ${r.outcomes[1]} in ${(r.perPdfSeconds[1] ?? 0).toFixed(1)} s (a fresh child process); peak RSS of the process and its PDF child ${r.peakRssMiB.toFixed(0)} MiB.`,
  );
  const rows = results.map(
    (r) =>
      `| ${r.name} | ${r.pdfs} | ${r.failed} | ${r.megabytes.toFixed(1)} | ${r.pdfPages} | ${r.seconds.toFixed(1)} | ${r.pagesPerSec.toFixed(1)} | ${r.peakRssMiB.toFixed(0)} |`,
  );
  const md = [
    '# PDF text extraction (pdf.js in one child process)',
    '',
    `${env.command} at ${env.commit}, ${env.date}; ${env.cpu}, ${env.cores} cores; node ${env.node}`,
    '',
    `Child process heap cap ${DEFAULT_PDF_OPTIONS.maxHeapMb} MiB (PdfOptions.maxHeapMb), buffer cap ${DEFAULT_PDF_OPTIONS.maxBufferMb} MiB (maxBufferMb); process RSS before: ${rssStartMiB.toFixed(0)} MiB.`,
    '',
    '| set | PDFs | failed | MiB | PDF pages | s | pages/s | peak RSS MiB (process + PDF child) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    capped ? `Largest DocWeb PDF under a 24 MiB heap cap: ${capped}.` : '',
    '',
    `Memory bound (PDFs made here to exhaust the PDF child process), heap cap ${boundCaps.maxHeapMb} MiB, buffer cap ${boundCaps.maxBufferMb} MiB:`,
    '',
    ...boundLines,
    '',
  ].join('\n');
  const paths = writeResults(options.outDir, 'pdf-bench', { env, rssStartMiB, results }, md);
  console.log(md);
  console.log(`wrote ${paths.json} and ${paths.md}`);
  return results;
}
