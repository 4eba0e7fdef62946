/**
 * Worker-thread entry of retrainings (see retrain-job.ts and run-worker.ts): receives one
 * {@link RetrainJob} per message, posts back `{ result }` or `{ error }` for each, one job at a
 * time. Training runs here so the crawl loop on the main thread never waits for it.
 */
import { parentPort } from 'node:worker_threads';
import { type RetrainJob, runRetrainJob } from './retrain-job.js';

parentPort?.on('message', async (job: RetrainJob) => {
  try {
    const result = await runRetrainJob(job);
    parentPort?.postMessage({ result });
  } catch (error) {
    parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});
