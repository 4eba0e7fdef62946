// `npm run build:lab`: builds what `npm run bench` and `npm run lab` run, without ever removing
// the crawler's dist/, so a `tres` command started from this folder meanwhile keeps working.
//   1. the crawler into dist/, incrementally (dist/.tsbuildinfo): only changed files are written;
//   2. the shared test support (testing/) into testing/dist/;
//   3. the lab (lab/) into lab/dist/, or into the folder `--lab-out DIR` names.
// Every output file is written to a temporary name beside it and renamed over the old one, so a
// reader sees the old file or the new one, never a half-written one. `npm run build` (the
// package's own clean build) still empties dist/ first, so that nothing stale is published.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ts = createRequire(import.meta.url)('typescript');

const outFlag = process.argv.indexOf('--lab-out');
const labOut = outFlag > 0 ? resolve(process.argv[outFlag + 1] ?? '') : join(ROOT, 'lab', 'dist');

let written = 0;
/** @type {(path: string, data: string, writeByteOrderMark?: boolean) => void} */
ts.sys.writeFile = (path, data, writeByteOrderMark) => {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, writeByteOrderMark ? `\uFEFF${data}` : data);
  renameSync(temporary, path);
  written += 1;
};

/**
 * Runs tsc with these arguments in this process; returns its exit code.
 * @param {string[]} args
 */
function tsc(args) {
  let status = 0;
  const exit = ts.sys.exit;
  /** @param {number | undefined} code */
  ts.sys.exit = (code) => {
    status = code ?? 0;
  };
  try {
    ts.executeCommandLine(ts.sys, () => {}, args);
  } finally {
    ts.sys.exit = exit;
  }
  return status;
}

const steps = [
  [
    '-p',
    join(ROOT, 'tsconfig.build.json'),
    '--incremental',
    '--tsBuildInfoFile',
    join(ROOT, 'dist', '.tsbuildinfo'),
  ],
  ['-p', join(ROOT, 'testing', 'tsconfig.json')],
  [
    '-p',
    join(ROOT, 'lab', 'tsconfig.json'),
    '--outDir',
    labOut,
    '--tsBuildInfoFile',
    join(labOut, '.tsbuildinfo'),
  ],
];
for (const args of steps) {
  const status = tsc(args);
  if (status !== 0) {
    process.exitCode = status;
    break;
  }
}
if (process.argv.includes('--verbose')) console.error(`build:lab: ${written} files written`);
