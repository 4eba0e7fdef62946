/**
 * `npm run bench` and `npm run lab` build the crawler, the shared test support and the lab first
 * (scripts/build-lab.mjs). A `tres` command started from the same folder meanwhile must keep
 * working: the build never removes the crawler's dist/. Then the built lab starts, importing the
 * crawler and the test support through their built packages only, and the benchmark entry
 * answers --help and refuses an unknown flag.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TRES_BIN } from '../src/cli/test-cli.js';

const ROOT = join(import.meta.dirname, '..');
const DIST_MAIN = join(ROOT, 'dist', 'cli', 'main.js');

/** Runs `node FILE ARGS` in the repository; resolves to the exit code and the output. */
function run(file: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [file, ...args], { cwd: ROOT, encoding: 'utf8' }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

describe('npm run build:lab', () => {
  it('leaves dist/ in place: tres --help answers all along the build; the built lab and benchmarks start', {
    timeout: 900_000,
  }, async () => {
    const build = spawn(process.execPath, [join(ROOT, 'scripts', 'build-lab.mjs')], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let buildErrors = '';
    build.stderr.on('data', (chunk) => {
      buildErrors += chunk;
    });
    let isBuilding = true;
    const built = new Promise<number | null>((resolve) => {
      build.on('exit', (code) => {
        isBuilding = false;
        resolve(code);
      });
    });
    // Looked at every few milliseconds: removing dist/ and building it again takes far longer.
    let missingSeen = 0;
    const watch = setInterval(() => {
      if (!existsSync(DIST_MAIN)) missingSeen += 1;
    }, 5);
    const helps: { code: number; output: string }[] = [];
    try {
      while (isBuilding) helps.push(await run(TRES_BIN, ['--help']));
      expect(await built, buildErrors).toBe(0);
    } finally {
      clearInterval(watch);
    }
    expect(missingSeen).toBe(0);
    expect(helps.length).toBeGreaterThan(0);
    for (const help of helps) {
      expect(help.code, help.output).toBe(0);
      expect(help.output).toContain('Usage: tres');
    }
    const lab = await run(join(ROOT, 'lab', 'dist', 'cli', 'lab.js'), ['--help']);
    expect(lab.code, lab.output).toBe(0);
    expect(lab.output).toContain('npm run lab --');
    // `npm run bench -- PART --help` prints the parts and flags and runs nothing; an unknown flag
    // is refused, not ignored.
    const benchMain = join(ROOT, 'lab', 'dist', 'bench', 'main.js');
    const [help, unknown] = await Promise.all([
      run(benchMain, ['memory', '--help']),
      run(benchMain, ['memory', '--strategy', 'tres']),
    ]);
    expect(help.code, help.output).toBe(0);
    expect(help.output).toContain('Usage: npm run bench -- [PART ...] [FLAGS]');
    expect(help.output).toContain('memory     bytes per frontier URL');
    expect(unknown.code).toBe(2);
    expect(unknown.output.trim()).toBe('unknown flag --strategy; see npm run bench -- --help');
  });
});
