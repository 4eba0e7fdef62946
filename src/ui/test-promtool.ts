/**
 * Prometheus's own check of a `/metrics` text: Debian's `promtool check metrics` (package
 * `prometheus`; .ci/run puts the promtool binary on the PATH without the server).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The promtool binary on the PATH, or undefined. */
export const PROMTOOL = (process.env.PATH ?? '')
  .split(delimiter)
  .filter(Boolean)
  .map((folder) => join(folder, 'promtool'))
  .find((path) => existsSync(path));

if (!PROMTOOL) {
  console.warn('promtool tests skipped: promtool is not installed (.ci/run installs it from Debian)');
}

/** Runs `promtool check metrics` on `text`: its exit code and what it printed (the lint problems). */
export function promtoolCheck(text: string): { code: number | null; output: string } {
  const run = spawnSync(PROMTOOL!, ['check', 'metrics'], { input: text, encoding: 'utf8' });
  return { code: run.status, output: `${run.stdout}${run.stderr}`.trim() };
}
