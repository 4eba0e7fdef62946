import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRng } from 'tres-crawler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocweb } from './build.js';
import { DocwebDb, type DocwebPageRow } from './docweb-db.js';
import { drawByPage, type SampleOptions, sampleTrainingData } from './sample.js';
import { type DocwebFixture, fixtureBuildOptions, makeDocwebFixture } from './test-fixture.js';
import { loadTopic, type Topic } from './topic.js';

let fx: DocwebFixture;
let hardware: Topic;

beforeAll(async () => {
  fx = makeDocwebFixture();
  await buildDocweb(fixtureBuildOptions(fx));
  hardware = loadTopic(join(fx.topicsDir, 'hardware.yaml'));
});
afterAll(() => fx?.cleanup());

const sample = (out: string, extra: Partial<SampleOptions> = {}) =>
  sampleTrainingData({
    topic: hardware,
    outDir: join(fx.root, out),
    cacheDir: fx.cacheDir,
    relevant: 2,
    ratio: 2,
    minWords: 5,
    ...extra,
  });
const manifestOf = (out: string) => readFileSync(join(fx.root, out, 'manifest.tsv'), 'utf8');

describe('sampleTrainingData', () => {
  it('writes relevant pages and ratio times as many irrelevant pages from other sites, with a manifest', () => {
    const r = sample('s1', { draw: 'by-site', irrelevantFrom: 'other-sites' });
    expect(r).toMatchObject({ relevant: 2, irrelevant: 4, relevantAvailable: 3, irrelevantSites: 2 });
    expect(readdirSync(join(fx.root, 's1', 'relevant'))).toEqual(['00001.html', '00002.html']);
    expect(readdirSync(join(fx.root, 's1', 'irrelevant'))).toHaveLength(4);
    const rows = manifestOf('s1')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split('\t'));
    for (const [, label, url] of rows) expect(hardware.labelOf(url as string)).toBe(label === 'relevant');
    // Other sites only: hw.example/mm/ is irrelevant but its site has relevant pages.
    expect(rows.filter(([, l, url]) => l === 'irrelevant' && (url as string).includes('hw.example'))).toEqual(
      [],
    );
    expect(readFileSync(join(fx.root, 's1', 'keywords.txt'), 'utf8')).toBe('hardware\ndriver\n');
    expect(JSON.parse(readFileSync(join(fx.root, 's1', 'sample.json'), 'utf8'))).toMatchObject({
      topic: 'hardware',
      seed: '1',
    });
  });

  it('by default also draws the irrelevant pages of sites that have relevant ones, as a crawl meets them', () => {
    // The whole irrelevant pool: no site cap, more pages wanted than the tiny web has.
    sample('d', { relevant: 3, ratio: 10, maxSiteShare: 1 });
    const irrelevant = manifestOf('d')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split('\t'))
      .filter(([, label]) => label === 'irrelevant')
      .map(([, , url]) => url);
    expect(irrelevant).toContain('https://hw.example/mm/index.html');
    expect(JSON.parse(readFileSync(join(fx.root, 'd', 'sample.json'), 'utf8'))).toMatchObject({
      draw: 'by-page',
      irrelevantFrom: 'all',
    });
  });

  it("draws half by page and half by site with draw 'mixed', never the same page twice", () => {
    // Every relevant page of the tiny web: the by-site half must come from the pages the by-page
    // half left, or a page would be drawn twice and another never.
    const r = sample('m', { draw: 'mixed', relevant: 3, ratio: 2, maxSiteShare: 1 });
    expect(r).toMatchObject({ relevant: 3, irrelevant: 6, relevantAvailable: 3 });
    const urls = manifestOf('m')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split('\t')[2]);
    expect(new Set(urls).size).toBe(urls.length);
    expect(JSON.parse(readFileSync(join(fx.root, 'm', 'sample.json'), 'utf8'))).toMatchObject({
      draw: 'mixed',
    });
  });

  it('draws the same pages for the same seed and other pages for another seed', () => {
    sample('a', { seed: '7', ratio: 1 });
    sample('b', { seed: '7', ratio: 1 });
    expect(manifestOf('a')).toBe(manifestOf('b'));
    const others = ['8', '9', '10', '11'].map((seed) => {
      sample(`c${seed}`, { seed, ratio: 1 });
      return manifestOf(`c${seed}`);
    });
    expect(others.some((m) => m !== manifestOf('a'))).toBe(true);
  });

  it('passes over pages too short to train on and writes Latin-1 pages as UTF-8', () => {
    const r = sample('all', { relevant: 10, ratio: 10, irrelevantFrom: 'all', draw: 'by-site' });
    const rows = manifestOf('all');
    expect(rows).not.toContain('tiny.html');
    expect(rows).toContain('https://hw.example/mm/index.html');
    expect(r.passedOver).toBeGreaterThan(0);
    const notes = rows
      .split('\n')
      .find((l) => l.includes('notes.html'))
      ?.split('\t')[0] as string;
    expect(readFileSync(join(fx.root, 'all', notes), 'utf8')).toContain('caf\u00e9');
  });

  it('refuses to mix with an existing sample unless told to replace it', () => {
    sample('x');
    expect(() => sample('x')).toThrow(/already holds a sample.*--force/);
    expect(() => sample('x', { shouldOverwrite: true })).not.toThrow();
    expect(existsSync(join(fx.root, 'x', 'relevant', '00001.html'))).toBe(true);
  });

  it('passes over a page that tres train would refuse as binary (a NUL byte near its start)', () => {
    const url = 'https://hw.example/mm/index.html';
    expect(manifestOf('all')).toContain(url);
    const db = new DocwebDb(fx.cacheDir);
    const page = db.pageByUrl(url);
    const site = db.sites().find((s) => s.id === page?.siteId);
    if (page === undefined || site === undefined) throw new Error(`no page ${url} in the fixture`);
    const file = join(db.siteDir(site), page.path);
    db.close();
    const original = readFileSync(file);
    try {
      writeFileSync(file, Buffer.concat([original.subarray(0, 20), Buffer.from([0]), original.subarray(20)]));
      sample('binary', { relevant: 10, ratio: 10, irrelevantFrom: 'all', draw: 'by-site' });
      expect(manifestOf('binary')).not.toContain(url);
    } finally {
      writeFileSync(file, original);
    }
  });

  it('checks its options and names the field', () => {
    expect(() => sample('y', { ratio: 0 })).toThrow(/ratio must be a number > 0/);
    expect(() => sample('y', { relevant: 1.5 })).toThrow(/relevant must be a whole number/);
    expect(() => sample('y', { maxSiteShare: 0 })).toThrow(/maxSiteShare must be a number in \(0, 1\]/);
    expect(() => sample('y', { draw: 'round-robin' as 'by-site' })).toThrow(
      /draw must be one of 'by-page', 'by-site', 'mixed'/,
    );
  });
});

describe('drawByPage', () => {
  // Site 1 is big (200 pages), sites 2 to 21 have one page each.
  const pool: DocwebPageRow[] = [
    ...Array.from({ length: 200 }, (_, i) => ({
      id: i,
      url: `https://big.example/${i}`,
      siteId: 1,
      path: '',
      bytes: 1,
    })),
    ...Array.from({ length: 20 }, (_, i) => ({
      id: 200 + i,
      url: `https://s${i}.example/`,
      siteId: 2 + i,
      path: '',
      bytes: 1,
    })),
  ];
  const fromBig = (rows: DocwebPageRow[]) => rows.filter((r) => r.siteId === 1).length;

  it('takes pages in proportion to their number: the big site gives most of an uncapped draw', () => {
    const rows = drawByPage(pool, 40, 1, createRng(3), (p) => p);
    expect(rows).toHaveLength(40);
    // 200 of 220 pages are the big site's: about 36 of 40 expected; the one-page sites a few.
    expect(fromBig(rows)).toBeGreaterThan(28);
    expect(new Set(rows.map((r) => r.id)).size).toBe(40);
  });

  it('caps what one site gives at ceil(count x maxSiteShare) while the other sites have pages', () => {
    const rows = drawByPage(pool, 20, 0.1, createRng(3), (p) => p);
    expect(fromBig(rows)).toBe(2);
    expect(rows).toHaveLength(20);
  });

  it('fills the rest from capped sites when the others run out', () => {
    const rows = drawByPage(pool, 40, 0.1, createRng(3), (p) => p);
    // 20 one-page sites, then the big site beyond its cap of 4.
    expect(fromBig(rows)).toBe(20);
    expect(new Set(rows.map((r) => r.id)).size).toBe(40);
  });

  it('passes over rejected pages without counting them against the site', () => {
    const rows = drawByPage(pool, 10, 0.5, createRng(5), (p) => (p.id % 2 === 0 ? p : undefined));
    expect(rows.every((r) => r.id % 2 === 0)).toBe(true);
    expect(fromBig(rows)).toBeLessThanOrEqual(5);
    expect(rows).toHaveLength(10);
  });

  it('repeats exactly for the same seed', () => {
    const ids = (seed: number) => drawByPage(pool, 30, 0.2, createRng(seed), (p) => p).map((r) => r.id);
    expect(ids(9)).toEqual(ids(9));
    expect(ids(9)).not.toEqual(ids(10));
  });
});
