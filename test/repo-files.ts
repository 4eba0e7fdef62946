/**
 * The repository's files, for tests that check all of them: `git ls-files`, or, where the tests
 * run on a copy that is not a git checkout, a walk of the folder that leaves out what .gitignore
 * keeps out of git (dependencies, builds, benchmark output, raw benchmark data).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Folders and files a walk leaves out: those .gitignore names. */
const IGNORED =
  /^(\.git|node_modules|dist|dist-bench|bench-out|coverage|\.cache|tmp|\.tmp)$|\.tsbuildinfo$|^(results\.json|curves\.csv)$/;

/** Paths relative to `root`, '/'-separated, sorted. */
export function repoFiles(root = '.'): string[] {
  try {
    return execFileSync('git', ['ls-files', '-z'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .split('\0')
      .filter(Boolean);
  } catch {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
        if (IGNORED.test(entry.name) || (dir === 'results' && entry.name === 'quick')) continue;
        const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
        if (entry.isDirectory()) walk(path);
        else files.push(path);
      }
    };
    walk('');
    return files.sort();
  }
}
