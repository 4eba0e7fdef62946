/**
 * Storage faults through the CLI: a disk that fills mid-crawl (a file size limit set
 * with `ulimit -f` in the child's shell: EFBIG, the same path in SQLite and in our appends as
 * ENOSPC), a new crawl on a full disk, and a crawl folder on read-only storage. Each must end with
 * one line naming the file and the cause, an exit code of its own, what to do next, and nothing
 * lost.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_EXIT_CODES } from '../../store/index.js';
import { fetchedUrls } from '../../store/test-helpers.js';
import { runMain, TRES_BIN } from '../test-cli.js';
import { type SandboxCrawl, startSandboxCrawl } from '../test-sandbox-crawl.js';

/** Runs `tres ARGS...` in a child whose files may not grow past `limitKb` KiB (`ulimit -f`). */
async function runCliLimited(limitKb: number | 'unlimited', args: string[]) {
  const { spawn } = await import('node:child_process');
  return new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const quoted = [process.execPath, TRES_BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`);
    const child = spawn('bash', ['-c', `ulimit -f ${limitKb}; exec ${quoted.join(' ')}`], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

const jsonlLines = (dir: string) => readFileSync(join(dir, 'pages.jsonl'), 'utf8').split('\n').length - 1;

/**
 * A small tmpfs of `sizeKb` KiB (ENOSPC for real) when this process may mount one (root), with a
 * way to grow it; undefined elsewhere (the tests then fall back to `ulimit -f`).
 */
function smallDisk(dir: string, sizeKb: number): { grow: () => void; release: () => void } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  mkdirSync(dir, { recursive: true });
  if (spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k`, 'tmpfs', dir]).status !== 0)
    return undefined;
  return {
    grow: () => spawnSync('mount', ['-o', 'remount,size=64m', dir]),
    release: () => spawnSync('umount', ['-l', dir]),
  };
}

/** A folder made read-only for real: a read-only tmpfs when root (root ignores modes), else chmod. */
function makeReadOnly(dir: string): (() => void) | undefined {
  if (process.getuid?.() === 0) {
    const copy = `${dir}-ro`;
    mkdirSync(copy);
    const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', copy]);
    if (mount.status !== 0) return undefined;
    spawnSync('cp', ['-a', `${dir}/.`, copy]);
    spawnSync('mount', ['-o', 'remount,ro', copy]);
    rmSync(dir, { recursive: true });
    spawnSync('ln', ['-s', copy, dir]);
    return () => {
      spawnSync('umount', [copy]);
    };
  }
  spawnSync('chmod', ['-R', 'a-w', dir]);
  return () => spawnSync('chmod', ['-R', 'u+w', dir]);
}

describe('tres on storage that fails', () => {
  let web: SandboxCrawl;
  let base: string;
  let common: string[];

  beforeAll(async () => {
    web = await startSandboxCrawl({ seed: 27, pageCount: 4_000, prefix: 'tres-storage-' });
    base = web.base;
    common = ['--seeds', web.seedsFile, ...web.flags, '--concurrency', '2'];
  });
  afterAll(async () => {
    await web.close();
  });

  it('stops a crawl whose disk fills with one line, its own exit code, and resumes with nothing lost', async () => {
    const disk = smallDisk(join(base, 'disk1'), 512);
    const out = disk ? join(base, 'disk1', 'crawl') : join(base, 'full');
    try {
      // Without a disk to fill, a file size limit: SQLite reports it as an I/O error (EFBIG).
      const run = await runCliLimited(disk ? 'unlimited' : 250, [
        'crawl',
        '--out',
        out,
        '--max-pages',
        '400',
        ...common,
      ]);
      expect(disk ? [STORAGE_EXIT_CODES.full] : [STORAGE_EXIT_CODES.full, STORAGE_EXIT_CODES.io]).toContain(
        run.code,
      );
      const lines = run.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^tres: \S+(crawl\.sqlite|pages\.warc\.gz|pages\.jsonl): the /);
      if (disk) expect(lines[0]).toContain('the disk is full');
      expect(lines[0]).toContain(`tres crawl --resume ${out}`);
      disk?.grow(); // free space (reading needs a little too: SQLite's side file)
      const stored = fetchedUrls(out);
      expect(stored.length).toBeGreaterThan(0);
      expect(stored.length).toBeLessThan(400);

      const resumed = await runMain(['crawl', '--resume', out, '--quiet']);
      expect(resumed.stderr).toBe('');
      expect(resumed.code).toBe(0);
      const after = fetchedUrls(out);
      expect(after.slice(0, stored.length)).toEqual(stored);
      expect(after).toHaveLength(400);
      expect(new Set(after).size).toBe(400);
      expect(jsonlLines(out)).toBe(400);
    } finally {
      disk?.release();
    }
  }, 240_000);

  it('leaves no empty crawl.sqlite behind when a new crawl finds the disk full', async () => {
    const disk = smallDisk(join(base, 'disk2'), 64);
    const out = disk ? join(base, 'disk2', 'crawl') : join(base, 'full-at-start');
    const filler = join(base, 'disk2', 'filler');
    try {
      if (disk) spawnSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=4k', 'count=1000']);
      const run = await runCliLimited(disk ? 'unlimited' : 0, [
        'crawl',
        '--out',
        out,
        '--max-pages',
        '20',
        ...common,
      ]);
      expect(disk ? [STORAGE_EXIT_CODES.full] : [STORAGE_EXIT_CODES.full, STORAGE_EXIT_CODES.io]).toContain(
        run.code,
      );
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain('crawl.sqlite: the ');
      // Its files are gone, so it points to the same command again, not to a resume.
      expect(run.stderr).toContain('nothing was recorded');
      expect(run.stderr).toContain('run the same command again');
      expect(run.stderr).not.toContain('--resume');
      expect(existsSync(join(out, 'crawl.sqlite'))).toBe(false);
      // With space again, the same folder takes a new crawl.
      if (disk) {
        rmSync(filler);
        disk.grow();
      }
      const again = await runMain(['crawl', '--out', out, '--max-pages', '20', ...common]);
      expect(again.stderr).toBe('');
      expect(again.code).toBe(0);
    } finally {
      disk?.release();
    }
  }, 120_000);

  it('exports a crawl on read-only storage, and refuses to resume it with one line and its own exit code', async () => {
    const out = join(base, 'read-only');
    const made = await runMain(['crawl', '--out', out, '--max-pages', '30', ...common]);
    expect(made.code).toBe(0);
    const restore = makeReadOnly(out);
    if (restore === undefined) return; // cannot make read-only storage here
    try {
      const exported = await runMain(['export', out, '--format', 'jsonl']);
      expect(exported.stderr).toBe('');
      expect(exported.code).toBe(0);
      expect(exported.stdout.trim().split('\n')).toHaveLength(30);
      const resumed = await runMain(['crawl', '--resume', out, '--max-pages', '40', '--quiet']);
      const errors = resumed.stderr
        .trim()
        .split('\n')
        .filter((line) => !line.startsWith('tres: warning:'));
      expect(errors).toEqual([expect.stringContaining('the storage is read-only')]);
      expect(resumed.code).toBe(STORAGE_EXIT_CODES['read-only']);
      expect(resumed.stderr).toContain('read-only');
    } finally {
      restore();
    }
  }, 120_000);

  it('names a damaged crawl.sqlite in one line with its own exit code, for resume and export alike', async () => {
    const out = join(base, 'damaged');
    const made = await runMain(['crawl', '--out', out, '--max-pages', '30', ...common]);
    expect(made.code).toBe(0);
    const sqlite = join(out, 'crawl.sqlite');
    truncateSync(sqlite, Math.floor(statSync(sqlite).size / 2));
    for (const args of [
      ['crawl', '--resume', out, '--quiet'],
      ['export', out, '--format', 'jsonl'],
    ]) {
      const run = await runMain(args);
      const errors = run.stderr
        .trim()
        .split('\n')
        .filter((line) => !line.startsWith('tres: warning:'));
      expect(errors).toEqual([expect.stringContaining(`${sqlite}: the crawl database is damaged`)]);
      expect(run.code).toBe(STORAGE_EXIT_CODES.corrupt);
    }
    expect(jsonlLines(out)).toBe(30); // nothing lost: every page is still in pages.jsonl
  }, 60_000);
});
