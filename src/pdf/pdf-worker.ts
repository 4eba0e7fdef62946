/**
 * Entry of a PDF extraction child process (see pdf-pool.ts): says `{ isReady: true }` once it
 * listens, then answers each `{ id, bytes, url, limits }` message with `{ id, result }` or
 * `{ id, error, name }`.
 *
 * The heap cap (`--max-old-space-size`) does not cover typed arrays: their bytes live outside
 * V8's heap, and pdf.js decodes each stream into one `Uint8Array` (through the platform's
 * `DecompressionStream`, else its own decoder, whose buffer doubles as it grows), so a 1 MiB PDF
 * of compressed spaces would take gigabytes. In this process the typed array constructors refuse
 * any single array over `limits.maxBufferMb`, a `DecompressionStream` errors past that many
 * bytes out, and the first refusal is reported at once (the pool then ends this process,
 * as pdf.js would catch the error and go on decoding with its slower fallback).
 */
import { BUFFER_CAP_ERROR, extractPdf, type PdfExtractLimits } from './pdf-extract.js';

interface Job {
  id: number;
  bytes: Uint8Array;
  url: string;
  limits: PdfExtractLimits & { maxBufferMb: number };
}

let maxBufferBytes = Number.POSITIVE_INFINITY;
let jobId = -1;
let maxBufferMb = 0;
let hasRefused = false;

/** Tells the pool, once per job, that the PDF asked for more than the buffer cap. */
function refuse(bytes: number): void {
  if (hasRefused) return;
  hasRefused = true;
  process.send?.({
    id: jobId,
    error: `more than ${maxBufferMb} MiB in one buffer (${bytes} bytes)`,
    name: BUFFER_CAP_ERROR,
  });
}

// Replaced before pdf.js is loaded (extractPdf imports it on first use), so every `new
// Uint8Array(n)` it makes goes through the check; everything else passes to the real class.
const globals = globalThis as unknown as Record<string, unknown>;
for (const name of [
  'ArrayBuffer',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
]) {
  const real = globals[name] as (new (...args: unknown[]) => object) & { BYTES_PER_ELEMENT?: number };
  const perElement = real.BYTES_PER_ELEMENT ?? 1;
  globals[name] = new Proxy(real, {
    construct(target, args, newTarget) {
      const length = args[0];
      if (typeof length === 'number' && length * perElement > maxBufferBytes) {
        refuse(length * perElement);
        throw new RangeError(`${name} of ${length * perElement} bytes is over the PDF worker's buffer cap`);
      }
      return Reflect.construct(target, args, newTarget);
    },
  });
}

// pdf.js (5.x) inflates a stream with DecompressionStream first, collecting every chunk before it
// allocates the whole: count the bytes out and error past the cap (pdf.js then falls back to its
// own decoder, which meets the typed array cap above).
const RealDecompressionStream = globalThis.DecompressionStream;
globalThis.DecompressionStream = class CappedDecompressionStream {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream;
  constructor(format: ConstructorParameters<typeof RealDecompressionStream>[0]) {
    const real = new RealDecompressionStream(format);
    let bytesOut = 0;
    this.writable = real.writable;
    this.readable = real.readable.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          bytesOut += chunk.byteLength;
          if (bytesOut > maxBufferBytes) {
            refuse(bytesOut);
            controller.error(new RangeError(`a stream inflated past the PDF worker's buffer cap`));
          } else controller.enqueue(chunk);
        },
      }),
    );
  }
} as unknown as typeof DecompressionStream;

const reply = (message: object) => process.send?.(message);

process.on('message', (job: Job) => {
  jobId = job.id;
  maxBufferMb = job.limits.maxBufferMb;
  maxBufferBytes = maxBufferMb * 2 ** 20;
  hasRefused = false;
  extractPdf(job.bytes, job.url, job.limits).then(
    (result) => {
      if (!hasRefused) reply({ id: job.id, result });
    },
    (error: unknown) => {
      if (!hasRefused)
        reply({
          id: job.id,
          error: error instanceof Error ? error.message : String(error),
          name: error instanceof Error ? error.name : 'Error',
        });
    },
  );
});
// The crawl's process is gone (killed): nothing more will come.
process.on('disconnect', () => process.exit(0));
reply({ isReady: true });
