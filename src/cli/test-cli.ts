/**
 * Starting the CLI in tests: the built command (bin/tres.js, which runs dist/), as a user runs
 * it after `npm install`. Vitest's global set-up (test/build-dist.ts) rebuilds dist/ when a source
 * is newer, so these tests always run the code as it is. Children start in about a second, not
 * the 12-15 s vite-node took to compile the sources in each one.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The `tres` command of this checkout. */
export const TRES_BIN = join(ROOT, 'bin', 'tres.js');
/** The built CLI's entry module. */
const DIST_MAIN = pathToFileURL(join(ROOT, 'dist', 'cli', 'main.js')).href;

/** Starts `tres ARGS...` as a child process, with `env` added to this process's environment. */
export function spawnCli(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [TRES_BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
}

/** Runs `tres ARGS...` to the end; resolves to its exit code and output. */
export function runCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, env);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => {
      stdout += d;
    });
    child.stderr?.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Runs `tres ARGS...` in this process (no start-up cost); resolves to the exit code `main`
 * returns and what was written to stdout and stderr (console and direct writes alike).
 */
export async function runMain(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  // The built CLI, loaded by Node itself (vitest.config.ts leaves dist/ to Node): importing the
  // sources instead made vite compile the whole CLI in every test file that runs it.
  const { main } = (await import(/* @vite-ignore */ DIST_MAIN)) as typeof import('./main.js');
  let stdout = '';
  let stderr = '';
  const saved = {
    log: console.log,
    error: console.error,
    warn: console.warn,
    out: process.stdout.write,
    err: process.stderr.write,
  };
  const text = (parts: unknown[]) => `${parts.map(String).join(' ')}\n`;
  console.log = (...parts: unknown[]) => {
    stdout += text(parts);
  };
  console.error = console.warn = (...parts: unknown[]) => {
    stderr += text(parts);
  };
  process.stdout.write = ((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  }) as typeof process.stderr.write;
  try {
    const code = await main(['node', 'tres', ...args]);
    return { code, stdout, stderr };
  } catch (error) {
    return { code: -1, stdout, stderr: `${stderr}${(error as Error).stack ?? String(error)}` };
  } finally {
    console.log = saved.log;
    console.error = saved.error;
    console.warn = saved.warn;
    process.stdout.write = saved.out;
    process.stderr.write = saved.err;
  }
}
