/**
 * Vitest global set-up: tests that start the `tres` command (child processes, and `runMain` in
 * src/cli/test-cli.ts) run the built CLI in dist/, as a user does after `npm install`, instead of
 * compiling the TypeScript sources on the fly in every child (vite-node took 12-15 s to start
 * one under load). dist/ is rebuilt here, once per test run, when a source file is newer than
 * the last build; the build is incremental (dist/.tsbuildinfo), so an edit costs seconds.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Written after each build by this set-up; a source newer than it means dist/ is stale. */
export const BUILD_STAMP = join(ROOT, 'dist', '.built-for-tests');

/** Newest modification time (ms) of the files that go into dist/. */
function newestSourceMs(): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|json)$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  walk(join(ROOT, 'src'));
  for (const file of ['tsconfig.json', 'tsconfig.build.json', 'package.json']) {
    newest = Math.max(newest, statSync(join(ROOT, file)).mtimeMs);
  }
  return newest;
}

/** True when dist/ is missing or older than a source file. */
export function isDistStale(): boolean {
  if (!existsSync(BUILD_STAMP) || !existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) return true;
  return newestSourceMs() > statSync(BUILD_STAMP).mtimeMs;
}

export default function setup(): void {
  if (!isDistStale()) return;
  const started = Date.now();
  const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
  const stampMs = Date.now();
  execFileSync(
    process.execPath,
    [tsc, '-p', 'tsconfig.build.json', '--incremental', '--tsBuildInfoFile', join('dist', '.tsbuildinfo')],
    { cwd: ROOT, stdio: 'inherit' },
  );
  // Stamped with the time the build started: a file saved during the build makes the next run build again.
  writeFileSync(BUILD_STAMP, `${new Date(stampMs).toISOString()}\n`);
  utimesSync(BUILD_STAMP, stampMs / 1000, stampMs / 1000);
  console.log(`built dist/ for the CLI tests in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
