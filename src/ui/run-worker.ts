/**
 * Runs a retraining in a worker thread: the compiled `retrain-worker.js`, beside this file in
 * dist/, or dist/'s copy when running from the TypeScript sources (common/compiled-worker.ts).
 */
import { Worker } from 'node:worker_threads';
import { compiledWorkerPath } from '../common/index.js';
import type { RetrainJob, RetrainResult } from './retrain-job.js';

/**
 * Runs `job` in a worker thread.
 * @throws Error with the worker's message when the job fails (e.g. too few labels).
 */
export async function runRetrainInWorker(job: RetrainJob): Promise<RetrainResult> {
  const path = compiledWorkerPath(import.meta.url, 'retrain-worker.js');
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
