import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { tempDir } from 'tres-testing/temp-dir';
import { afterEach, describe, expect, it } from 'vitest';
import { JobThreads } from './run-worker.js';

/** A worker script: answers each job with its thread id, or fails, or dies, as the job says. */
const WORKER = `
import { parentPort, threadId } from 'node:worker_threads';
parentPort.on('message', (job) => {
  if (job === 'fail') parentPort.postMessage({ error: 'asked to fail' });
  else if (job === 'die') process.exit(3);
  else setTimeout(() => parentPort.postMessage({ result: threadId }), job === 'slow' ? 100 : 0);
});
`;

function workerFile(): string {
  const path = join(tempDir('tres-job-threads-'), 'worker.mjs');
  writeFileSync(path, WORKER);
  return path;
}

describe('JobThreads (the retraining thread)', () => {
  let threads: JobThreads<string, number> | undefined;
  afterEach(async () => {
    await threads?.close();
  });

  it('runs one job after another in the same thread and keeps it idle', async () => {
    const path = workerFile();
    threads = new JobThreads(() => path);
    const first = await threads.run('a');
    const second = await threads.run('b');
    expect(second).toBe(first);
    expect(threads.idleCount).toBe(1);
  });

  it('gives a job that starts while the thread is busy a thread of its own, and keeps one idle', async () => {
    const path = workerFile();
    threads = new JobThreads(() => path);
    const [a, b] = await Promise.all([threads.run('slow'), threads.run('slow')]);
    expect(a).not.toBe(b);
    expect(threads.idleCount).toBe(1);
  });

  it("rejects a failed job with the thread's message, and the thread takes the next job", async () => {
    const path = workerFile();
    threads = new JobThreads(() => path);
    const first = await threads.run('a');
    await expect(threads.run('fail')).rejects.toThrow('asked to fail');
    expect(await threads.run('b')).toBe(first);
  });

  it('rejects the job of a thread that dies with its exit code, and starts another for the next', async () => {
    const path = workerFile();
    threads = new JobThreads(() => path);
    const first = await threads.run('a');
    await expect(threads.run('die')).rejects.toThrow('exited with code 3');
    const next = await threads.run('b');
    expect(next).not.toBe(first);
  });

  it('lets the process end while its thread is idle', async () => {
    // The built module (vitest's set-up builds dist/), in a process of its own that must end by itself.
    const built = pathToFileURL(fileURLToPath(new URL('../../dist/ui/run-worker.js', import.meta.url))).href;
    const path = workerFile();
    const main = join(tempDir('tres-job-threads-'), 'main.mjs');
    writeFileSync(
      main,
      `import { JobThreads } from ${JSON.stringify(built)};
const threads = new JobThreads(() => ${JSON.stringify(path)});
console.log(typeof (await threads.run('a')), threads.idleCount);`,
    );
    const child = spawn(process.execPath, [main], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    const code = await new Promise<number | string>((resolve) => {
      const timer = setTimeout(() => {
        child.kill();
        resolve('still running after 20 s');
      }, 20_000);
      child.on('close', (c) => {
        clearTimeout(timer);
        resolve(c ?? 'killed');
      });
    });
    expect(code).toBe(0);
    expect(out.trim()).toBe('number 1');
  });
});
