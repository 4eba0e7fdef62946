import type { DiscoveredLink, SelectionContext } from 'tres-crawler';
import { tempDir } from 'tres-testing/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunResult, runOnce } from './crawl-bench-run.js';
import { writeSyntheticTopic } from './crawl-bench-test-utils.js';
import { type BenchWeb, openBenchWeb } from './crawl-bench-topic.js';
import { OracleStrategy } from './oracle-strategy.js';
import { WebScopeStrategy } from './web-scope.js';

const link = (url: string, domain = new URL(url).hostname): DiscoveredLink => ({
  url,
  host: new URL(url).hostname,
  domain,
  anchorText: '',
  depth: 1,
});
const ctx = (over: Partial<SelectionContext> = {}): SelectionContext => ({
  isHostReady: () => true,
  isDomainOpen: () => true,
  isDomainClosed: () => false,
  isFetched: () => false,
  step: 0,
  ...over,
});

describe('OracleStrategy', () => {
  it('fetches relevant links first, breadth-first among ties, and skips closed domains', () => {
    const oracle = new OracleStrategy((url) => url.includes('/good'));
    oracle.seed([link('https://a.example/bad1'), link('https://a.example/good1')]);
    oracle.observe({
      action: { url: 'https://a.example/', host: 'a.example', domain: 'a.example', depth: 0 },
      finalUrl: 'https://a.example/',
      isPage: true,
      reward: 0,
      probability: 0,
      links: [
        link('https://b.example/good2'),
        link('https://c.example/good3'),
        link('https://a.example/good1'),
      ],
    });
    const closed = ctx({ isDomainClosed: (d) => d === 'b.example' });
    expect([1, 2, 3, 4].map(() => oracle.next(closed)?.url)).toEqual([
      'https://a.example/good1',
      'https://c.example/good3',
      'https://a.example/bad1',
      undefined,
    ]);
  });

  it('takes the relevant link of the site it has fetched fewest pages from, first discovered on ties', () => {
    const oracle = new OracleStrategy((url) => url.includes('/good'));
    oracle.seed([
      link('https://a.example/good1'),
      link('https://a.example/good2'),
      link('https://a.example/good3'),
      link('https://b.example/good4'),
      link('https://c.example/bad'),
      link('https://c.example/good5'),
    ]);
    expect([1, 2, 3, 4, 5, 6].map(() => oracle.next(ctx())?.url)).toEqual([
      'https://a.example/good1',
      'https://b.example/good4',
      'https://c.example/good5',
      'https://a.example/good2',
      'https://a.example/good3',
      'https://c.example/bad',
    ]);
  });
});

describe('WebScopeStrategy', () => {
  it('drops links to hosts the web does not serve in the closed world and counts them either way', () => {
    const links = [link('https://a.example/x'), link('https://gone.example/y'), link('https://a.example/x')];
    for (const isClosedWorld of [true, false]) {
      const inner = new OracleStrategy(() => false);
      const scoped = new WebScopeStrategy(inner, new Set(['a.example']), isClosedWorld);
      scoped.seed(links);
      expect(scoped.stats()).toMatchObject({
        'frontier/size': isClosedWorld ? 1 : 2,
        'scope/links_discovered': 2,
        'scope/links_out_of_web': 1,
      });
    }
  });
});

describe('WebScopeStrategy with the pages of the web', () => {
  it('drops links to pages a served host does not have in the closed world, and counts them off the web', () => {
    const links = [
      link('https://a.example/x'),
      link('https://a.example/missing'),
      link('https://gone.example/y'),
    ];
    const inner = new OracleStrategy(() => false);
    const scoped = new WebScopeStrategy(inner, new Set(['a.example']), true, (url) => url.endsWith('/x'));
    scoped.seed(links);
    expect(scoped.stats()).toMatchObject({
      'frontier/size': 1,
      'scope/links_discovered': 3,
      'scope/links_out_of_web': 2,
    });
  });
});

describe('the oracle in a benchmark run', () => {
  const dir = tempDir('tres-oracle-test-');
  let web: BenchWeb;
  const results: Record<string, RunResult> = {};
  beforeAll(async () => {
    web = await openBenchWeb(writeSyntheticTopic(dir, 'synthetic-astronomy', 800));
    for (const strategy of ['oracle', 'bfs'])
      results[strategy] = await runOnce({
        topic: web.topic,
        strategy,
        domainLimit: 'none',
        run: 0,
        maxPages: 80,
        concurrency: 1,
        curvePoints: 4,
        relevanceThreshold: 0.5,
        net: web.net,
        urlFilter: web.urlFilter,
        judge: undefined,
        servedHosts: web.servedHosts,
      });
  });
  afterAll(async () => {
    await web?.close();
  });

  it('harvests at least as many relevant pages as BFS from the same seed, and records the scope counts', () => {
    const oracle = results.oracle as RunResult;
    const bfs = results.bfs as RunResult;
    expect(oracle.relevant).toBeGreaterThan(bfs.relevant);
    expect(oracle.isClosedWorld).toBe(true);
    expect(oracle.linksDiscovered).toBeGreaterThan(0);
  });
});
