/**
 * Entry of a PDF extraction worker thread (see pdf-pool.ts): answers each `{ id, bytes, url,
 * limits }` message with `{ id, result }` or `{ id, error, name }`.
 */
import { parentPort } from 'node:worker_threads';
import { extractPdf, type PdfExtractLimits } from './pdf-extract.js';

interface Job {
  id: number;
  bytes: Uint8Array;
  url: string;
  limits: PdfExtractLimits;
}

parentPort?.on('message', (job: Job) => {
  extractPdf(job.bytes, job.url, job.limits).then(
    (result) => parentPort?.postMessage({ id: job.id, result }),
    (error: unknown) =>
      parentPort?.postMessage({
        id: job.id,
        error: error instanceof Error ? error.message : String(error),
        name: error instanceof Error ? error.name : 'Error',
      }),
  );
});
