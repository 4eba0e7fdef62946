/**
 * PDF text extraction off the crawl's thread: a small pool of worker threads, each with a heap
 * cap (`resourceLimits`), and a time limit per PDF after which the worker is terminated and a
 * fresh one takes its place. A hostile or broken PDF costs at most `timeoutMs` and `maxHeapMb`,
 * and never stalls the crawl loop.
 *
 * From the build (dist/) the worker is the compiled `pdf-worker.js`. From the TypeScript sources
 * (tests) Node cannot load a `.ts` worker, so the entry is bundled once with esbuild (a dev
 * dependency of the test tooling) under node_modules/.cache, packages left external, as
 * ui/run-worker.ts does.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ConfigError, SkipUrlError } from '../common/errors.js';
import { BUFFER_CAP_ERROR, type ExtractedPdf } from './pdf-extract.js';

/** Options of {@link PdfExtractor}. */
export interface PdfOptions {
  /** Time one PDF may take to extract, in ms; past it the worker is terminated. @default 30_000 */
  timeoutMs?: number;
  /** Heap cap of each worker (V8 old generation), in MiB; past it the PDF fails. @default 256 */
  maxHeapMb?: number;
  /**
   * Largest single buffer (typed array) a worker may allocate, in MiB; a PDF that asks for a
   * bigger one fails. Buffers live outside the V8 heap, so `maxHeapMb` does not bound them, and
   * pdf.js decodes each stream into one: without this a 1 MiB PDF of compressed spaces takes
   * gigabytes. A worker's memory stays under about maxHeapMb + 3 x maxBufferMb (a decoded stream
   * doubles as it grows) plus 100 MiB of young generation and code. @default 64
   */
  maxBufferMb?: number;
  /**
   * Pages read per PDF; later pages are left out (the first pages say what a document is about,
   * and a 900-page manual would hold a worker for minutes). @default 50
   */
  maxPages?: number;
  /** Characters of text kept per PDF. @default 1_000_000 */
  maxTextChars?: number;
  /** Worker threads (PDFs extracted at the same time). @default 1 */
  maxWorkers?: number;
}

/** Defaults of {@link PdfOptions}. */
export const DEFAULT_PDF_OPTIONS: Readonly<Required<PdfOptions>> = Object.freeze({
  timeoutMs: 30_000,
  maxHeapMb: 256,
  maxBufferMb: 64,
  maxPages: 50,
  maxTextChars: 1_000_000,
  maxWorkers: 1,
});

/**
 * Fills in and checks PDF options.
 * @throws ConfigError naming the field (`pdf.timeoutMs`).
 */
export function resolvePdfOptions(options: PdfOptions = {}): Required<PdfOptions> {
  const merged = { ...DEFAULT_PDF_OPTIONS, ...options };
  for (const key of Object.keys(DEFAULT_PDF_OPTIONS) as (keyof PdfOptions)[]) {
    const v = merged[key];
    if (!Number.isInteger(v) || v < 1)
      throw new ConfigError(`pdf.${key} must be an integer >= 1, got ${JSON.stringify(v)}`, {
        context: { field: `pdf.${key}` },
      });
  }
  return merged;
}

let bundled: string | undefined;

async function workerPath(): Promise<string> {
  const compiled = fileURLToPath(new URL('./pdf-worker.js', import.meta.url));
  if (existsSync(compiled)) return compiled;
  if (bundled && existsSync(bundled)) return bundled;
  const source = fileURLToPath(new URL('./pdf-worker.ts', import.meta.url));
  const esbuild = await import('esbuild');
  const cache = fileURLToPath(new URL('../../node_modules/.cache/tres-pdf/', import.meta.url));
  mkdirSync(cache, { recursive: true });
  const out = join(cache, `pdf-worker-${process.pid}.mjs`);
  await esbuild.build({
    entryPoints: [source],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile: out,
    logLevel: 'silent',
  });
  bundled = out;
  return out;
}

interface Job {
  bytes: Uint8Array;
  url: string;
  resolve: (result: ExtractedPdf) => void;
  reject: (error: unknown) => void;
}

interface Slot {
  worker: Worker;
  job: Job | undefined;
  timer: NodeJS.Timeout | undefined;
}

/** Extracts PDFs in worker threads. Call {@link PdfExtractor.close} when done. */
export class PdfExtractor {
  readonly options: Readonly<Required<PdfOptions>>;
  private readonly queue: Job[] = [];
  private readonly slots = new Set<Slot>();
  private starting = 0;
  private nextId = 0;
  private isClosed = false;

  /** @throws ConfigError naming a bad option. */
  constructor(options: PdfOptions = {}) {
    this.options = resolvePdfOptions(options);
  }

  /**
   * Text, title and links of the PDF `bytes` fetched from `url`.
   * @throws SkipUrlError `TRES_PDF_TIMEOUT` past `timeoutMs`, `TRES_PDF_TOO_BIG` past
   *   `maxHeapMb` or `maxBufferMb`, `TRES_PDF_INVALID` for a file pdf.js cannot read (context: url).
   */
  extract(bytes: Uint8Array, url: string): Promise<ExtractedPdf> {
    if (this.isClosed) return Promise.reject(new Error('PdfExtractor is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ bytes, url, resolve, reject });
      this.pump();
    });
  }

  /** Terminates the workers; queued PDFs fail. */
  async close(): Promise<void> {
    this.isClosed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('PdfExtractor closed'));
    await Promise.all([...this.slots].map((slot) => this.retire(slot)));
  }

  private pump(): void {
    for (const slot of this.slots)
      if (!slot.job && this.queue.length > 0) this.run(slot, this.queue.shift() as Job);
    if (this.queue.length > this.starting && this.slots.size + this.starting < this.options.maxWorkers) {
      this.starting++;
      this.spawn().then(
        (slot) => {
          this.starting--;
          if (this.isClosed) void this.retire(slot);
          else this.pump();
        },
        (error: unknown) => {
          this.starting--;
          for (const job of this.queue.splice(0)) job.reject(error);
        },
      );
    }
  }

  private async spawn(): Promise<Slot> {
    const worker = new Worker(await workerPath(), {
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb, maxYoungGenerationSizeMb: 32 },
    });
    const slot: Slot = { worker, job: undefined, timer: undefined };
    worker.on('message', (m: { result?: ExtractedPdf; error?: string; name?: string }) => {
      const job = slot.job;
      if (!job) return;
      this.finish(slot);
      if (m.result) job.resolve(m.result);
      else if (m.name === BUFFER_CAP_ERROR) {
        job.reject(
          new SkipUrlError(
            'TRES_PDF_TOO_BIG',
            `the PDF ${job.url} needs ${m.error} to extract (pdf.maxBufferMb)`,
            {
              context: { url: job.url },
            },
          ),
        );
        // pdf.js caught the refusal and decodes on with its slower fallback: end the thread.
        void this.retire(slot);
      } else
        job.reject(
          new SkipUrlError('TRES_PDF_INVALID', `cannot read the PDF ${job.url}: ${m.name}: ${m.error}`, {
            context: { url: job.url },
          }),
        );
      this.pump();
    });
    const onDeath = (error?: Error) => {
      this.slots.delete(slot);
      const job = slot.job;
      if (job) {
        this.finish(slot);
        const isHeap = (error as { code?: string } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
        job.reject(
          isHeap
            ? new SkipUrlError(
                'TRES_PDF_TOO_BIG',
                `the PDF ${job.url} needs more than ${this.options.maxHeapMb} MiB of heap to extract (pdf.maxHeapMb)`,
                { context: { url: job.url } },
              )
            : new SkipUrlError('TRES_PDF_INVALID', `PDF worker failed on ${job.url}: ${String(error)}`, {
                context: { url: job.url },
              }),
        );
      }
      if (!this.isClosed) this.pump();
    };
    worker.on('error', onDeath);
    worker.on('exit', () => onDeath());
    this.slots.add(slot);
    return slot;
  }

  private run(slot: Slot, job: Job): void {
    slot.job = job;
    slot.timer = setTimeout(() => {
      slot.job = undefined;
      this.finish(slot);
      job.reject(
        new SkipUrlError(
          'TRES_PDF_TIMEOUT',
          `the PDF ${job.url} took more than ${this.options.timeoutMs} ms to extract`,
          {
            context: { url: job.url },
          },
        ),
      );
      // The only way to stop pdf.js mid-file: end the thread; pump() starts a fresh one.
      void this.retire(slot);
    }, this.options.timeoutMs);
    const id = this.nextId++;
    // A copy: the fetched body stays whole for the WARC record.
    slot.worker.postMessage({ id, bytes: new Uint8Array(job.bytes), url: job.url, limits: this.options });
  }

  private finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.job = undefined;
  }

  private async retire(slot: Slot): Promise<void> {
    this.slots.delete(slot);
    this.finish(slot);
    await slot.worker.terminate();
  }
}
