/**
 * Runs a retraining in a worker thread: the compiled `retrain-worker.js`, beside this file in
 * dist/, or dist/'s copy when running from the TypeScript sources (common/compiled-worker.ts).
 *
 * The thread stays for the next retraining: starting one loads the relevance, store and crawl
 * rooms, about 0.7 s of CPU, three times what a retraining on 50 answers takes, and a crawl that
 * asks retrains after every few answers. One idle thread is kept,
 * unreferenced, so it never keeps the process alive; a retraining that starts while it is busy
 * (two crawls in one process) gets a thread of its own.
 */
import { Worker } from 'node:worker_threads';
import { compiledWorkerPath } from '../common/index.js';
import type { RetrainJob, RetrainResult } from './retrain-job.js';

/** Threads kept idle between retrainings. */
const MAX_IDLE = 1;

/** A worker thread that runs one job at a time, posting back `{ result }` or `{ error }`. */
interface JobReply<R> {
  result?: R;
  error?: string;
}

/**
 * Worker threads of one compiled script, each taking jobs one at a time by `postMessage` and
 * answering each with one {@link JobReply}; idle ones are kept (up to `maxIdle`) and unreferenced.
 */
export class JobThreads<J, R> {
  private readonly idle: Worker[] = [];

  constructor(
    private readonly path: () => string,
    private readonly maxIdle = MAX_IDLE,
  ) {}

  /** Threads idle now. */
  get idleCount(): number {
    return this.idle.length;
  }

  /**
   * Runs `job` in an idle thread, or a new one.
   * @throws Error with the thread's message when the job fails, or when the thread dies.
   */
  run(job: J): Promise<R> {
    const worker = this.idle.pop() ?? this.start();
    worker.ref();
    return new Promise<R>((resolve, reject) => {
      const done = () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      const onMessage = (m: JobReply<R>) => {
        done();
        this.release(worker);
        if (m.result !== undefined) resolve(m.result);
        else reject(new Error(m.error ?? 'the worker thread answered without a result'));
      };
      const onError = (e: Error) => {
        done();
        void worker.terminate();
        reject(e);
      };
      const onExit = (code: number) => {
        done();
        reject(new Error(`worker thread exited with code ${code}`));
      };
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
      worker.postMessage(job);
    });
  }

  /** Ends the idle threads (those running a job end with it). */
  async close(): Promise<void> {
    const idle = this.idle.splice(0);
    await Promise.all(idle.map((w) => w.terminate()));
  }

  private start(): Worker {
    const worker = new Worker(this.path());
    // An idle thread that dies (out of memory) leaves the pool.
    worker.on('exit', () => {
      const i = this.idle.indexOf(worker);
      if (i >= 0) this.idle.splice(i, 1);
    });
    return worker;
  }

  private release(worker: Worker): void {
    if (this.idle.length >= this.maxIdle) {
      void worker.terminate();
      return;
    }
    worker.unref();
    this.idle.push(worker);
  }
}

const retrainThreads = new JobThreads<RetrainJob, RetrainResult>(() =>
  compiledWorkerPath(import.meta.url, 'retrain-worker.js'),
);

/**
 * Runs `job` in a worker thread.
 * @throws Error with the worker's message when the job fails (e.g. too few labels).
 */
export function runRetrainInWorker(job: RetrainJob): Promise<RetrainResult> {
  return retrainThreads.run(job);
}
