import { once } from 'node:events';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WARCParser } from 'warcio';
import { keywordsOf } from '../../sandbox/index.js';
import { runCli, runMain, spawnCli } from '../test-cli.js';
import { type SandboxCrawl, startSandboxCrawl } from '../test-sandbox-crawl.js';

const TOPIC = 'computer hardware';

describe('tres crawl', () => {
  let sandbox: SandboxCrawl;
  let base: string;
  let seedsFile: string;
  let requests: Map<string, number>;

  beforeAll(async () => {
    sandbox = await startSandboxCrawl({
      seed: 3,
      hostCount: 60,
      pageCount: 20_000,
      topics: [TOPIC, 'cooking recipes'],
      seedCount: 4,
      seedsComment: '# seeds',
      prefix: 'tres-cli-',
    });
    ({ base, seedsFile, requests } = sandbox);
  });
  afterAll(() => sandbox.close());

  function crawlArgs(out: string, extra: string[] = []): string[] {
    return [
      'crawl',
      '--seeds',
      seedsFile,
      '--out',
      out,
      '--keywords',
      keywordsOf(TOPIC).join(','),
      '--min-delay-ms',
      '0',
      '--allow-loopback',
      '--resolve',
      sandbox.rules,
      ...extra,
    ];
  }

  it('resumes a crawl killed with SIGKILL: no page lost, none fetched twice', async () => {
    const out = join(base, 'killed');
    const budget = 400;
    const child = spawnCli(crawlArgs(out, ['--max-pages', String(budget), '--concurrency', '2', '--quiet']));
    // Listen before waiting: a child that exits early must fail the test, not hang it.
    const closed = once(child, 'close');
    const jsonl = join(out, 'pages.jsonl');
    const lines = () => (existsSync(jsonl) ? readFileSync(jsonl, 'utf8').split('\n').length - 1 : 0);
    const deadline = Date.now() + 60_000;
    while (lines() < 120 && Date.now() < deadline && child.exitCode === null) {
      await new Promise((r) => setTimeout(r, 10));
    }
    child.kill('SIGKILL');
    await closed;
    const before = lines();
    expect(before).toBeGreaterThanOrEqual(120);
    expect(before).toBeLessThan(budget);

    const resumed = await runCli(['crawl', '--resume', out, '--quiet']);
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain(`pages fetched   ${budget}`);

    const db = new Database(join(out, 'crawl.sqlite'), { readonly: true });
    const rows = db.prepare('SELECT url, status FROM pages ORDER BY id').all() as {
      url: string;
      status: number;
    }[];
    db.close();
    expect(rows).toHaveLength(budget);
    expect(new Set(rows.map((r) => r.url)).size).toBe(budget);
    expect(lines()).toBe(budget);
    // Every stored response is in the WARC, once.
    const parser = new WARCParser(createReadStream(join(out, 'pages.warc.gz')));
    const responses: string[] = [];
    for await (const record of parser) {
      if (record.warcType === 'response') responses.push(record.warcTargetURI ?? '');
    }
    expect(responses.length).toBe(rows.filter((r) => r.status > 0).length);
    expect(new Set(responses).size).toBe(responses.length);
    // Only the fetches in flight at the kill (at most K = 2) reached the server twice.
    const twice = [...requests.values()].filter((n) => n > 1).length;
    expect(twice).toBeLessThanOrEqual(2);
  }, 120_000);

  it('stops gracefully on SIGINT: exit 130, status interrupted, everything recorded', async () => {
    const out = join(base, 'interrupted');
    const child = spawnCli(crawlArgs(out, ['--max-pages', '5000', '--concurrency', '2', '--quiet']));
    const closed = once(child, 'close');
    let stdout = '';
    child.stdout?.on('data', (d) => {
      stdout += d;
    });
    const jsonl = join(out, 'pages.jsonl');
    const lines = () => (existsSync(jsonl) ? readFileSync(jsonl, 'utf8').split('\n').length - 1 : 0);
    const deadline = Date.now() + 60_000;
    while (lines() < 50 && Date.now() < deadline && child.exitCode === null) {
      await new Promise((r) => setTimeout(r, 10));
    }
    child.kill('SIGINT');
    const [code] = await closed;
    expect(code).toBe(130);
    expect(stdout).toContain('crawl interrupted');
    expect(stdout).toContain(`tres crawl --resume ${out}`);
    const db = new Database(join(out, 'crawl.sqlite'), { readonly: true });
    const status = db.prepare("SELECT value FROM meta WHERE key = 'status'").get() as { value: string };
    const count = (db.prepare('SELECT COUNT(*) AS n FROM pages').get() as { n: number }).n;
    db.close();
    expect(JSON.parse(status.value)).toBe('interrupted');
    expect(count).toBe(lines());
  }, 120_000);

  it('explains bad arguments in one line and exits with code 2', async () => {
    // In this process: these need no exit status from the OS, and a child costs seconds each.
    const noSeeds = await runMain(['crawl', '--out', join(base, 'x')]);
    expect(noSeeds.code).toBe(2);
    expect(noSeeds.stderr.trim()).toBe('tres: missing --seeds <file> (one seed URL per line)');
    const badLimit = await runMain(crawlArgs(join(base, 'y'), ['--domain-limit', 'lots']));
    expect(badLimit.code).toBe(2);
    expect(badLimit.stderr).toContain('"lots" is not a domain limit');
    const badRule = await runMain(crawlArgs(join(base, 'z'), ['--resolve', 'nonsense']));
    expect(badRule.code).toBe(2);
    expect(badRule.stderr).toContain('Bad resolve rule "nonsense"');
    const noResume = await runMain(['crawl', '--resume', join(base, 'nothing-here')]);
    expect(noResume.code).toBe(2);
    expect(noResume.stderr).toContain('no crawl found there');
    for (const dir of ['x', 'y', 'z', 'nothing-here']) expect(existsSync(join(base, dir))).toBe(false);
  }, 60_000);
});
