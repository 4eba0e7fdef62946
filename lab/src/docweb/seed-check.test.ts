import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocweb } from './build.js';
import { DocwebDb } from './docweb-db.js';
import { checkSeeds, pageKey } from './seed-check.js';
import { type DocwebFixture, fixtureBuildOptions, makeDocwebFixture } from './test-fixture.js';
import { loadTopic } from './topic.js';
import { formatTopicReport, topicReport } from './topic-report.js';

let fx: DocwebFixture;
let db: DocwebDb;

beforeAll(async () => {
  fx = makeDocwebFixture();
  await buildDocweb(fixtureBuildOptions(fx));
  db = new DocwebDb(fx.cacheDir);
});
afterAll(() => {
  db?.close();
  fx?.cleanup();
});

describe('checkSeeds', () => {
  it('accepts seeds on different sites that do not link to each other', () => {
    const r = checkSeeds(db, ['https://hw.example/drivers/pci.html', 'https://www.shared.example/music/']);
    expect(r).toMatchObject({ missing: [], links: [], sharedSites: [], isIndependent: true });
  });

  it('finds a link between sites, with http/https, fragments and index.html treated as one page', () => {
    const r = checkSeeds(db, [
      'https://www.shared.example/stats/manual/regression.html',
      'http://hw.example/drivers/usb.html',
    ]);
    expect(r.links).toEqual([
      {
        from: 'https://www.shared.example/stats/manual/regression.html',
        to: 'http://hw.example/drivers/usb.html',
      },
    ]);
    expect(r.isIndependent).toBe(false);
    const folder = checkSeeds(db, ['https://hw.example/', 'https://www.shared.example/stats/manual/']);
    expect(folder.links).toEqual([
      { from: 'https://hw.example/', to: 'https://www.shared.example/stats/manual/' },
    ]);
  });

  it('resolves links against <base href> as the crawler does', () => {
    // sub/base.html says <base href="../"> and links to regression.html: /stats/manual/regression.html.
    const r = checkSeeds(db, [
      'https://www.shared.example/stats/manual/sub/base.html',
      'https://www.shared.example/stats/manual/regression.html',
    ]);
    expect(r.links.map((l) => l.to)).toEqual(['https://www.shared.example/stats/manual/regression.html']);
    expect(r.sharedSites).toHaveLength(1);
  });

  it('counts a meta refresh as a link and reports seeds that are not pages of the build', () => {
    const r = checkSeeds(db, [
      'https://www.shared.example/music/index.html',
      'https://www.shared.example/music/Documentation/',
      'https://hw.example/nope.html',
    ]);
    expect(r.links).toHaveLength(1);
    expect(r.missing).toEqual(['https://hw.example/nope.html']);
  });

  it('keys a page the same with or without index.html and trailing slash', () => {
    expect(pageKey('http://A.example/x/index.html#f')).toBe(pageKey('https://a.example/x/'));
  });
});

describe('topicReport', () => {
  it('counts relevant pages per site and per rule, and checks the seeds', () => {
    const r = topicReport(db, loadTopic(`${fx.topicsDir}/statistics.yaml`));
    expect(r.relevantPages).toBe(3);
    expect(r.sites).toEqual([{ site: 'www.shared.example/stats/manual/', relevant: 3, pages: 4 }]);
    expect(r.rules[0]?.pages).toBe(4);
    expect(r.exceptions[0]?.pages).toBe(1);
    expect(r.seeds.isIndependent).toBe(true);
    expect(formatTopicReport(r)[0]).toBe('topic statistics: 3 relevant pages of 14, on 1 sites');
  });
});
