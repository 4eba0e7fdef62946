/**
 * A killed crawl (its pages partly in crawl.sqlite-wal) on read-only media: `tres
 * export` and `tres ui` read it, `tres crawl --resume` refuses in one line with exit 77, and the
 * folder is left byte for byte as it was. SQLite cannot open a WAL database in place there (it
 * needs a side file), so without the reader's copy (store/read-crawl.ts) each read fails.
 *
 * Read-only for real, also as root (CI), whom file modes do not stop: a read-only tmpfs when the
 * test may mount one, else the folder made unwritable and tres run as the unprivileged user
 * `nobody` (setpriv), else (not root) the folder made unwritable.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_EXIT_CODES } from '../../store/index.js';
import { spawnCli, TRES_BIN } from '../test-cli.js';
import { type SandboxCrawl, startSandboxCrawl } from '../test-sandbox-crawl.js';

/** Where the read-only crawl is, how to run tres on it, and how to undo it. */
interface ReadOnlyMedium {
  dir: string;
  /** Command prefix that runs tres (empty: as this process's user). */
  prefix: string[];
  how: string;
  release: () => void;
}

/** Puts a copy of crawl folder `dir` on read-only media (see the module comment). */
function readOnlyMedium(dir: string): ReadOnlyMedium {
  const isRoot = process.getuid?.() === 0;
  if (isRoot) {
    const mounted = `${dir}-tmpfs`;
    mkdirSync(mounted);
    if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=32m', 'tmpfs', mounted]).status === 0) {
      spawnSync('cp', ['-a', `${dir}/.`, mounted]);
      if (spawnSync('mount', ['-o', 'remount,ro', mounted]).status === 0) {
        return {
          dir: mounted,
          prefix: [],
          how: 'read-only tmpfs',
          release: () => spawnSync('umount', [mounted]),
        };
      }
      spawnSync('umount', [mounted]);
    }
    const setpriv = spawnSync('setpriv', ['--version']);
    if (setpriv.status !== 0) throw new Error('as root this test needs mount or setpriv (util-linux)');
    spawnSync('chmod', ['-R', 'a-w', dir]);
    return {
      dir,
      prefix: ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', '--'],
      how: 'unwritable folder, tres run as nobody',
      release: () => spawnSync('chmod', ['-R', 'u+w', dir]),
    };
  }
  spawnSync('chmod', ['-R', 'a-w', dir]);
  return { dir, prefix: [], how: 'unwritable folder', release: () => spawnSync('chmod', ['-R', 'u+w', dir]) };
}

/** Starts `tres ARGS...` through `prefix`, with a HOME the user can use. */
function startTres(prefix: string[], args: string[]): ChildProcess {
  const command = [...prefix, process.execPath, TRES_BIN, ...args];
  return spawn(command[0]!, command.slice(1), {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, HOME: tmpdir() },
  });
}

function finish(child: ChildProcess): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => {
    stdout += d;
  });
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Every file of `dir` with its SHA-1. */
const snapshot = (dir: string) =>
  readdirSync(dir)
    .sort()
    .map((f) => [
      f,
      createHash('sha1')
        .update(readFileSync(join(dir, f)))
        .digest('hex'),
    ]);

describe('a killed crawl on read-only media', () => {
  let web: SandboxCrawl;
  let medium: ReadOnlyMedium;
  let rows: number;
  let before: string[][];

  beforeAll(async () => {
    web = await startSandboxCrawl({ seed: 33, pageCount: 20_000, prefix: 'tres-read-only-' });
    chmodSync(web.base, 0o755); // the unprivileged user must reach the folder
    const dir = join(web.base, 'crawl');
    const crawl = spawnCli(['crawl', '--out', dir, '--seeds', web.seedsFile, ...web.flags]);
    const ended = finish(crawl);
    // Killed once it has recorded some pages: they are in the WAL, not yet in crawl.sqlite.
    const jsonl = join(dir, 'pages.jsonl');
    for (let i = 0; i < 600; i++) {
      await new Promise((r) => setTimeout(r, 50));
      try {
        if (readFileSync(jsonl, 'utf8').split('\n').length > 60) break;
      } catch {
        // not created yet
      }
    }
    crawl.kill('SIGKILL');
    await ended;
    expect(readdirSync(dir)).toContain('crawl.sqlite-wal');
    rows = readFileSync(jsonl, 'utf8').split('\n').length - 1; // a torn last line has no row
    medium = readOnlyMedium(dir);
    before = snapshot(medium.dir);
  }, 120_000);
  afterAll(async () => {
    medium?.release();
    await web?.close();
  });

  it('exports it', async () => {
    const run = await finish(startTres(medium.prefix, ['export', medium.dir, '--format', 'jsonl']));
    expect(run.stderr, medium.how).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n').length).toBeGreaterThanOrEqual(rows - 1);
    expect(snapshot(medium.dir)).toEqual(before);
  }, 60_000);

  it('serves its dashboard', async () => {
    const child = startTres(medium.prefix, ['ui', medium.dir, '--ui-port', '0']);
    const ended = finish(child);
    let stderr = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr?.on('data', (d) => {
        stderr += d;
        const found = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stderr);
        if (found) resolve(found[1]!);
      });
      child.on('close', () => reject(new Error(`tres ui ended (${medium.how}): ${stderr}`)));
    });
    try {
      const status = (await (await fetch(`${url}api/status`)).json()) as { progress: { steps: number } };
      expect(status.progress.steps).toBeGreaterThanOrEqual(rows - 1);
      const pages = (await (await fetch(`${url}api/pages?limit=3`)).json()) as {
        total: number;
        pages: unknown[];
      };
      expect(pages.total).toBe(status.progress.steps);
      expect(pages.pages).toHaveLength(3);
    } finally {
      child.kill('SIGINT');
      await ended;
    }
    expect(snapshot(medium.dir)).toEqual(before);
  }, 60_000);

  it('refuses to resume it in one line with exit 77', async () => {
    const run = await finish(startTres(medium.prefix, ['crawl', '--resume', medium.dir, '--quiet']));
    const errors = run.stderr
      .trim()
      .split('\n')
      .filter((line) => !line.startsWith('tres: warning:'));
    expect(errors).toEqual([expect.stringContaining('the storage is read-only')]);
    expect(run.code).toBe(STORAGE_EXIT_CODES['read-only']);
    expect(snapshot(medium.dir)).toEqual(before);
  }, 60_000);

  it('refuses a new crawl into it in one line with the same exit 77, writing nothing', async () => {
    const seeds = join(tmpdir(), `tres-ro-seeds-${process.pid}.txt`);
    writeFileSync(seeds, 'http://example.test/\n');
    chmodSync(seeds, 0o644);
    try {
      const out = join(medium.dir, 'new-crawl');
      const run = await finish(
        startTres(medium.prefix, ['crawl', '--seeds', seeds, '--out', out, '--keywords', 'a', '--quiet']),
      );
      expect(run.stderr.trim().split('\n')).toEqual([expect.stringContaining('is not writable')]);
      expect(run.code).toBe(STORAGE_EXIT_CODES['read-only']);
      expect(snapshot(medium.dir)).toEqual(before);
    } finally {
      rmSync(seeds, { force: true });
    }
  }, 60_000);
});
