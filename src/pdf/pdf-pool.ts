/**
 * PDF text extraction off the crawl's process: a small pool of child processes (`fork`), each
 * with a heap cap (`--max-old-space-size`) and a buffer cap (pdf-worker.ts), and a time limit per
 * PDF after which the child is killed and a fresh one takes its place. A hostile or broken PDF
 * costs at most `timeoutMs` and about 2.5 x `maxHeapMb` + 3 x `maxBufferMb` (V8 allocates a
 * grown array before it finds its heap full), and never stalls or ends the crawl.
 *
 * Processes, not worker threads: a worker thread's `resourceLimits` is best effort, and an array
 * grown by `push()` past the cap (as pdf.js's lexer grows a string) can abort the whole process
 * ("FATAL ERROR: Reached heap limit", nodejs/node#47224); the benchmark saw it end the crawl's
 * process. A child that runs out of heap dies alone.
 *
 * The child runs the compiled `pdf-worker.js`: beside this file in dist/, or dist/'s copy when
 * running from the TypeScript sources (common/compiled-worker.ts).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { ConfigError, compiledWorkerPath, SkipUrlError } from '../common/index.js';
import { BUFFER_CAP_ERROR, type ExtractedPdf } from './pdf-extract.js';

/** Options of {@link PdfExtractor}. */
export interface PdfOptions {
  /** Time one PDF may take to extract, in ms; past it the child process is killed. @default 30_000 */
  timeoutMs?: number;
  /** Heap cap of each child process (V8 old generation), in MiB; past it the PDF fails. @default 256 */
  maxHeapMb?: number;
  /**
   * Largest single buffer (typed array) a child process may allocate, in MiB; a PDF that asks for a
   * bigger one fails. Buffers live outside the V8 heap, so `maxHeapMb` does not bound them, and
   * pdf.js decodes each stream into one: without this a 1 MiB PDF of compressed spaces takes
   * gigabytes. A child's memory stays under about 2.5 x maxHeapMb + 3 x maxBufferMb (a decoded
   * stream doubles as it grows). @default 64
   */
  maxBufferMb?: number;
  /**
   * Pages read per PDF; later pages are left out (the first pages say what a document is about,
   * and a 900-page manual would hold a worker for minutes). @default 50
   */
  maxPages?: number;
  /** Characters of text kept per PDF. @default 1_000_000 */
  maxTextChars?: number;
  /** Child processes (PDFs extracted at the same time). @default 1 */
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

interface Job {
  bytes: Uint8Array;
  url: string;
  resolve: (result: ExtractedPdf) => void;
  reject: (error: unknown) => void;
}

interface Slot {
  child: ChildProcess;
  job: Job | undefined;
  timer: NodeJS.Timeout | undefined;
  /** The end of the child's stderr (V8 prints why it died there). */
  stderr: string;
}

type Reply = { id: number; result?: ExtractedPdf; error?: string; name?: string; isReady?: boolean };

/** Extracts PDFs in child processes. Call {@link PdfExtractor.close} when done. */
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

  /** Process ids of the running children (for benchmarks that measure their memory). */
  get pids(): number[] {
    return [...this.slots].flatMap((slot) => (slot.child.pid === undefined ? [] : [slot.child.pid]));
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

  /** Ends the children; queued PDFs fail. */
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
          if (this.isClosed || !slot.child.connected) void this.retire(slot);
          else {
            this.slots.add(slot);
            this.pump();
          }
        },
        (error: unknown) => {
          this.starting--;
          for (const job of this.queue.splice(0)) job.reject(error);
        },
      );
    }
  }

  /** A child that has loaded its entry and listens (it says so), wired to this pool. */
  private async spawn(): Promise<Slot> {
    const child = fork(compiledWorkerPath(import.meta.url, 'pdf-worker.js'), [], {
      // Only these flags: not the parent's (a test runner's loaders, its own heap size).
      execArgv: [`--max-old-space-size=${this.options.maxHeapMb}`, '--max-semi-space-size=16'],
      serialization: 'advanced', // Uint8Array crosses as bytes, not as a JSON object
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    const slot: Slot = { child, job: undefined, timer: undefined, stderr: '' };
    child.stderr?.on('data', (d: Buffer) => {
      slot.stderr = (slot.stderr + d.toString('utf8')).slice(-2000);
    });
    await new Promise<void>((resolve, reject) => {
      const onReply = (m: Reply) => {
        if (!m.isReady) return;
        child.off('exit', onEarlyExit);
        resolve();
      };
      const onEarlyExit = (code: number | null, signal: string | null) =>
        reject(
          new Error(
            `the PDF reader process ended as it started (${signal ?? `exit code ${code}`}): ${slot.stderr.trim()}`,
          ),
        );
      child.once('message', onReply);
      child.once('exit', onEarlyExit);
      child.once('error', reject);
    });
    child.on('message', (m: Reply) => {
      const job = slot.job;
      if (!job || m.isReady) return;
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
        // pdf.js caught the refusal and decodes on with its slower fallback: end the child.
        void this.retire(slot);
      } else
        job.reject(
          new SkipUrlError('TRES_PDF_INVALID', `cannot read the PDF ${job.url}: ${m.name}: ${m.error}`, {
            context: { url: job.url },
          }),
        );
      this.pump();
    });
    child.on('error', () => {}); // a failed kill or send; 'exit' tells the rest
    child.on('exit', (code, signal) => {
      this.slots.delete(slot);
      const job = slot.job;
      if (job) {
        this.finish(slot);
        // V8 aborts a process past its heap (SIGABRT, or exit code 134 through a shell).
        const isHeap = /heap out of memory|Reached heap limit/.test(slot.stderr) || signal === 'SIGABRT';
        job.reject(
          isHeap
            ? new SkipUrlError(
                'TRES_PDF_TOO_BIG',
                `the PDF ${job.url} needs more than ${this.options.maxHeapMb} MiB of heap to extract (pdf.maxHeapMb)`,
                { context: { url: job.url } },
              )
            : new SkipUrlError(
                'TRES_PDF_INVALID',
                `the PDF reader process ended on ${job.url} (${signal ?? `exit code ${code}`})`,
                { context: { url: job.url } },
              ),
        );
      }
      if (!this.isClosed) this.pump();
    });
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
      // The only way to stop pdf.js mid-file: end the process; pump() starts a fresh one.
      void this.retire(slot);
    }, this.options.timeoutMs);
    const id = this.nextId++;
    // A child that died meanwhile fails the job through its 'exit' handler.
    slot.child.send({ id, bytes: job.bytes, url: job.url, limits: this.options }, () => {});
  }

  private finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.job = undefined;
  }

  /** Kills the child (pdf.js may be deep in a loop that no message reaches) and waits for its end. */
  private async retire(slot: Slot): Promise<void> {
    this.slots.delete(slot);
    this.finish(slot);
    const { child } = slot;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}
