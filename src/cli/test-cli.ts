/** Spawning the CLI from its TypeScript sources in tests (through vite-node, no build needed). */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const VITE_NODE = join(
  dirname(createRequire(import.meta.url).resolve('vite-node/package.json')),
  'vite-node.mjs',
);
const ENTRY = join(dirname(fileURLToPath(import.meta.url)), 'test-run-cli.ts');

/** Starts `tres ARGS...` as a child process. */
export function spawnCli(args: string[]): ChildProcess {
  return spawn(process.execPath, [VITE_NODE, ENTRY, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Runs `tres ARGS...` to the end; resolves to its exit code and output. */
export function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args);
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
