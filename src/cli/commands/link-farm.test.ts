/**
 * The built `tres crawl` on a link farm (every page links to 300 new host names, the server
 * keeps idle connections for 60 s) under `ulimit -n 1024`, with most of those descriptors taken
 * before node starts, so that the crawl runs out of them within seconds: it must say so in one
 * line, go on to its page budget, and stop promptly on Ctrl-C.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LinkFarm, startLinkFarm } from '../../sandbox/index.js';
import { TRES_BIN } from '../test-cli.js';

/** Descriptors below this number are left to node; the rest up to 1023 are held open by bash. */
const FREE_DESCRIPTORS = 110;

describe('tres crawl on a link farm under ulimit -n 1024', () => {
  let farm: LinkFarm;
  let base: string;
  let seedsFile: string;

  beforeAll(async () => {
    farm = await startLinkFarm({ linksPerPage: 300, keepAliveMs: 60_000 });
    base = mkdtempSync(join(tmpdir(), 'tres-link-farm-'));
    seedsFile = join(base, 'seeds.txt');
    writeFileSync(seedsFile, `${farm.seedUrl}\n`);
  });

  afterAll(async () => {
    await farm.close();
    rmSync(base, { recursive: true, force: true });
  });

  /** `tres crawl` under ulimit -n 1024 with descriptors FREE_DESCRIPTORS..1023 taken. */
  function crawl(
    out: string,
    maxPages: number,
  ): { child: ChildProcess; stderr: () => string; stdout: () => string } {
    const args = [
      TRES_BIN,
      'crawl',
      '--seeds',
      seedsFile,
      '--out',
      out,
      '--keywords',
      'hardware',
      '--strategy',
      'bfs',
      '--max-pages',
      String(maxPages),
      '--resolve',
      `*=127.0.0.1:${farm.port}`,
      '--allow-loopback',
      '--min-delay-ms',
      '0',
      '--quiet',
    ].map((a) => `'${a}'`);
    const script = `ulimit -n 1024; for i in $(seq ${FREE_DESCRIPTORS} 1023); do eval "exec $i</dev/null"; done; exec '${process.execPath}' ${args.join(' ')}`;
    const child = spawn('bash', ['-c', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stderr?.on('data', (d) => {
      stderr += d;
    });
    child.stdout?.on('data', (d) => {
      stdout += d;
    });
    return { child, stderr: () => stderr, stdout: () => stdout };
  }

  it('reaches its page budget when descriptors run out, saying so in one line', async () => {
    const out = join(base, 'budget');
    const { child, stderr, stdout } = crawl(out, 200);
    const [code] = await once(child, 'close');
    expect(stdout()).toContain('crawl finished');
    expect(code).toBe(0);
    const warnings = stderr()
      .split('\n')
      .filter((l) => l.includes('out of file descriptors'));
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    expect(warnings[0]).toMatch(/^tres: warning: out of file descriptors \(EMFILE\)/);
    const db = new Database(join(out, 'crawl.sqlite'), { readonly: true });
    const pages = (db.prepare('SELECT COUNT(*) AS n FROM pages WHERE status = 200').get() as { n: number }).n;
    db.close();
    // Every host fetched is a new one: far more connections than descriptors were needed.
    expect(pages).toBeGreaterThan(FREE_DESCRIPTORS);
    expect(pages).toBeGreaterThanOrEqual(190);
  }, 60_000);

  it('stops within a second of Ctrl-C while descriptors are exhausted', async () => {
    const out = join(base, 'sigint');
    const { child, stderr, stdout } = crawl(out, 100_000);
    const deadline = Date.now() + 40_000;
    while (!stderr().includes('out of file descriptors') && Date.now() < deadline && child.exitCode === null)
      await new Promise((r) => setTimeout(r, 20));
    expect(stderr()).toContain('out of file descriptors');
    const closed = once(child, 'close');
    const sentMs = performance.now();
    child.kill('SIGINT');
    const [code] = await closed;
    expect(code).toBe(130);
    expect(stdout()).toContain('crawl interrupted');
    // The farm saw its last request within a second of the signal: the crawl had stopped.
    expect(farm.lastRequestMs() - sentMs).toBeLessThan(1000);
  }, 60_000);
});
