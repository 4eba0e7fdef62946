import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/**
 * The benchmark entry from the sources, through vite-node: `npm run bench` runs the lab's own
 * build (lab/dist/, scripts/build-lab.mjs), which the test set-up does not build.
 */
const BENCH = [
  join(ROOT, 'node_modules', 'vite-node', 'vite-node.mjs'),
  join(ROOT, 'lab', 'src', 'bench', 'main.ts'),
  '--',
];

/** Runs the benchmark entry (it loads every benchmark's modules first: seconds, more under load). */
function bench(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...BENCH, ...args], { encoding: 'utf8' }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('npm run bench -- PART --help', () => {
  it('prints the parts and flags and runs nothing; an unknown flag is refused, not ignored', async () => {
    const [help, unknown] = await Promise.all([
      bench(['memory', '--help']),
      bench(['memory', '--strategy', 'tres']),
    ]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: npm run bench -- [PART ...] [FLAGS]');
    expect(help.stdout).toContain('memory     bytes per frontier URL');
    expect(help.stderr).toBe('');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim()).toBe('unknown flag --strategy; see npm run bench -- --help');
  }, 120_000);
});
