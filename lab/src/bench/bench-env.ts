/** What every benchmark records about where and how it ran, and where it writes its results. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';

export interface BenchEnv {
  command: string;
  commit: string;
  node: string;
  cpu: string;
  cores: number;
  memoryGiB: number;
  date: string;
}

export function benchEnv(): BenchEnv {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    if (dirty) commit += '+dirty';
  } catch {
    // not a git checkout
  }
  return {
    command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
    commit,
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    date: new Date().toISOString(),
  };
}

/** Writes `name.json` and `name.md` under `dir`; returns their paths. */
export function writeResults(
  dir: string,
  name: string,
  json: unknown,
  markdown: string,
): { json: string; md: string } {
  mkdirSync(dir, { recursive: true });
  const paths = { json: join(dir, `${name}.json`), md: join(dir, `${name}.md`) };
  writeFileSync(paths.json, `${JSON.stringify(json, null, 2)}\n`);
  writeFileSync(paths.md, markdown);
  return paths;
}
