/**
 * Worker-thread entry of a retraining (see retrain-job.ts): receives one {@link RetrainJob} as
 * `workerData`, posts back `{ result }` or `{ error }`. Training runs here so the crawl loop on
 * the main thread never waits for it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type RetrainJob, runRetrainJob } from './retrain-job.js';

try {
  const result = await runRetrainJob(workerData as RetrainJob);
  parentPort?.postMessage({ result });
} catch (error) {
  parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) });
}
