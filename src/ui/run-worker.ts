/**
 * Runs a retraining in a worker thread. From the build (dist/) the worker is the compiled
 * `retrain-worker.js`. From the TypeScript sources (tests, vite-node) Node cannot load a `.ts`
 * worker, so the entry is bundled once with esbuild (a dev dependency of the test tooling) into a
 * `.mjs` file under node_modules/.cache (so its package imports resolve), packages left external.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RetrainJob, RetrainResult } from './retrain-job.js';

let bundled: string | undefined;

async function workerPath(): Promise<string> {
  const compiled = fileURLToPath(new URL('./retrain-worker.js', import.meta.url));
  if (existsSync(compiled)) return compiled;
  if (bundled && existsSync(bundled)) return bundled;
  const source = fileURLToPath(new URL('./retrain-worker.ts', import.meta.url));
  const esbuild = await import('esbuild');
  const cache = fileURLToPath(new URL('../../node_modules/.cache/tres-ui/', import.meta.url));
  mkdirSync(cache, { recursive: true });
  const out = join(cache, `retrain-worker-${process.pid}.mjs`);
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

/**
 * Runs `job` in a worker thread.
 * @throws Error with the worker's message when the job fails (e.g. too few labels).
 */
export async function runRetrainInWorker(job: RetrainJob): Promise<RetrainResult> {
  const path = await workerPath();
  return new Promise((resolve, reject) => {
    const worker = new Worker(path, { workerData: job });
    let isSettled = false;
    worker.once('message', (m: { result?: RetrainResult; error?: string }) => {
      isSettled = true;
      if (m.result) resolve(m.result);
      else reject(new Error(m.error ?? 'retraining failed'));
    });
    worker.once('error', (e) => {
      isSettled = true;
      reject(e);
    });
    worker.once('exit', (code) => {
      if (!isSettled) reject(new Error(`retraining worker exited with code ${code}`));
    });
  });
}
