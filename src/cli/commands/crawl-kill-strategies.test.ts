/**
 * Each learning strategy resumes after a kill, with a real kill, and tres's too (coverage from its
 * frontier snapshot): the CLI
 * crawls with the strategy in a child process, gets SIGKILL part-way, and `--resume` finishes the
 * budget with no page lost or stored twice, and no URL requested twice beyond the fetches in
 * flight at the kill.
 * (`every-strategy.test.ts` checks every strategy's resume in-process, with the fetches in
 * flight aborted; `crawl.test.ts` kills the default strategy.)
 */
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keywordsOf } from '../../sandbox/index.js';
import { readFrontierSnapshot } from '../../store/index.js';
import { runMain, spawnCli } from '../test-cli.js';
import { type SandboxCrawl, startSandboxCrawl } from '../test-sandbox-crawl.js';

const TOPIC = 'computer hardware';
const BUDGET = 160;
const KILL_AFTER = 50;
const CONCURRENCY = 2;
const CHECKPOINT_EVERY = 20;
const SNAPSHOT_EVERY = 10;
/**
 * The learning strategies besides coverage (below, with its frontier snapshots), and tres. The
 * others are resumed in-process by
 * every-strategy.test.ts; crawl.test.ts kills the default, best-first.
 */
const STRATEGIES = ['tres', 'han-async', 'ache', 'apprentice', 'rlwcs', 'lim-dfs', 'lim-q'];
/**
 * Each strategy with its own flags; tres once more with a frontier bound far below what the web
 * offers, so that links wait in the store at the kill and the resume rebuilds them from there.
 */
const CASES: { strategy: string; label: string; flags: string[] }[] = [
  ...STRATEGIES.map((strategy) => ({ strategy, label: strategy, flags: [] })),
  { strategy: 'tres', label: 'tres --max-frontier-urls 40', flags: ['--max-frontier-urls', '40'] },
  // coverage's frontier snapshots, every 10 pages: the resume restores the last one before the
  // kill (links held in the store and fetches in flight in it) and replays the pages since.
  {
    strategy: 'coverage',
    label: 'coverage --frontier-snapshot-pages 10 --max-frontier-urls 40',
    flags: ['--frontier-snapshot-pages', String(SNAPSHOT_EVERY), '--max-frontier-urls', '40'],
  },
];

describe('a crawl killed with SIGKILL resumes, for each strategy of the source papers', () => {
  let sandbox: SandboxCrawl;
  let base: string;
  let seedsFile: string;
  let requests: Map<string, number>;

  beforeAll(async () => {
    sandbox = await startSandboxCrawl({
      seed: 9,
      hostCount: 40,
      pageCount: 8_000,
      topics: [TOPIC, 'cooking recipes'],
      prefix: 'tres-kill-',
    });
    ({ base, seedsFile, requests } = sandbox);
  });
  afterAll(() => sandbox.close());

  for (const { strategy, label, flags } of CASES) {
    it(`${label}: killed after ${KILL_AFTER} pages, resumed to ${BUDGET}, nothing lost or fetched twice`, async () => {
      const out = join(base, label.replace(/[^a-z0-9]+/g, '-'));
      // Every crawl here fetches from the same hosts and seeds: the count restarts for each (the
      // tests of a file run one after the other).
      requests.clear();
      const child = spawnCli([
        'crawl',
        '--seeds',
        seedsFile,
        '--out',
        out,
        '--keywords',
        keywordsOf(TOPIC).join(','),
        '--strategy',
        strategy,
        '--max-pages',
        String(BUDGET),
        '--concurrency',
        String(CONCURRENCY),
        '--min-delay-ms',
        '0',
        // Checkpoints of what the strategy learned before the kill, for the resume to go on from.
        '--checkpoint-every',
        String(CHECKPOINT_EVERY),
        '--allow-loopback',
        '--resolve',
        sandbox.rules,
        '--quiet',
        ...flags,
      ]);
      // Listen before waiting: a child that exits early must fail the test, not hang it.
      const closed = once(child, 'close');
      let stderr = '';
      child.stderr?.on('data', (d) => {
        stderr += d;
      });
      const jsonl = join(out, 'pages.jsonl');
      const lines = () => (existsSync(jsonl) ? readFileSync(jsonl, 'utf8').split('\n').length - 1 : 0);
      const deadline = Date.now() + 60_000;
      while (lines() < KILL_AFTER && Date.now() < deadline && child.exitCode === null) {
        await new Promise((r) => setTimeout(r, 10));
      }
      child.kill('SIGKILL');
      await closed;
      const before = lines();
      expect(stderr).toBe('');
      expect(before).toBeGreaterThanOrEqual(KILL_AFTER);
      expect(before).toBeLessThan(BUDGET);

      // The resume runs the CLI's main in this process: the kill is what needs a process of its own.
      const stored = new Database(join(out, 'crawl.sqlite'), { readonly: true });
      const checkpoint = stored.prepare('SELECT after_page FROM checkpoints').get() as { after_page: number };
      stored.close();
      // The last periodic checkpoint before the kill: every page up to it, none after.
      expect(checkpoint.after_page % CHECKPOINT_EVERY).toBe(0);
      expect(checkpoint.after_page).toBeLessThanOrEqual(before);
      expect(checkpoint.after_page).toBeGreaterThan(before - CHECKPOINT_EVERY - CONCURRENCY);
      const snapshotAt = readFrontierSnapshot(out)?.snapshot.afterPage;
      if (strategy === 'coverage') {
        // The last snapshot before the kill (they come every 10 pages here, a tenth of 50 being less).
        expect(snapshotAt).toBeLessThanOrEqual(before);
        expect(snapshotAt).toBeGreaterThan(before - SNAPSHOT_EVERY - CONCURRENCY);
      } else expect(snapshotAt).toBeUndefined();
      const resumed = await runMain(['crawl', '--resume', out, '--quiet']);
      expect(resumed.stderr).toBe(
        snapshotAt === undefined
          ? `resuming ${strategy} from what it had learned through page ${checkpoint.after_page}\n`
          : `resuming ${strategy} from its frontier snapshot of page ${snapshotAt}\n`,
      );
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toContain(`pages fetched   ${BUDGET}`);
      const db = new Database(join(out, 'crawl.sqlite'), { readonly: true });
      const urls = (db.prepare('SELECT url FROM pages').all() as { url: string }[]).map((r) => r.url);
      const config = db.prepare("SELECT value FROM meta WHERE key = 'config'").get() as { value: string };
      const end = db.prepare("SELECT value FROM meta WHERE key = 'endProgress'").get() as { value: string };
      db.close();
      if (flags.length > 0) {
        // The bound held links back after the resume too (its replay rebuilt them from the store).
        const stats = (JSON.parse(end.value) as { strategyStats: Record<string, number> }).strategyStats;
        expect(stats['frontier/held_pages_total']).toBeGreaterThan(0);
      }
      expect(urls).toHaveLength(BUDGET);
      expect(new Set(urls).size).toBe(BUDGET);
      expect(lines()).toBe(BUDGET);
      expect(JSON.parse(config.value)).toMatchObject({ strategy });
      // Only the fetches in flight at the kill (at most K) reached the server twice.
      const twice = [...requests.values()].filter((n) => n > 1).length;
      expect(twice).toBeLessThanOrEqual(CONCURRENCY);
    }, 120_000);
  }
});
