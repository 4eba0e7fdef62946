import { SiteRouter } from 'tres-crawler/internals';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocweb } from './build.js';
import { DocwebDb } from './docweb-db.js';
import { countLinkGraph, formatLinkGraph, landingUrl, servedPageLookup } from './link-graph.js';
import { type DocwebFixture, fixtureBuildOptions, makeDocwebFixture } from './test-fixture.js';

let fx: DocwebFixture;

beforeAll(async () => {
  fx = makeDocwebFixture();
  await buildDocweb(fixtureBuildOptions(fx));
});
afterAll(() => fx?.cleanup());

describe('countLinkGraph', () => {
  it('sorts the links that leave their host into resolving, served-but-missing and not served', () => {
    const db = new DocwebDb(fx.cacheDir);
    try {
      const c = countLinkGraph(db);
      // hw.example/index.html -> www.shared.example/stats/manual/ and regression.html -> hw.example/drivers/usb.html
      expect(c.crossHostResolved).toBe(2);
      expect(c.crossHostUnserved).toBe(0);
      expect(c.servedHosts).toBe(2);
      expect(c.linkedHostPairs).toBe(2);
      expect(c.isolatedHosts).toBe(0);
      expect(c.crossHostResolvedShare).toBe(c.crossHostResolved / c.crossHost);
      expect(formatLinkGraph(c)[1]).toMatch(/^ {2}2 \(\d+\.\d%\) resolve to a page of the DocWeb$/);
    } finally {
      db.close();
    }
  });
});

describe('servedPageLookup', () => {
  it('gives the page a link lands on, and nothing for a dead link or a host not served', () => {
    const db = new DocwebDb(fx.cacheDir);
    try {
      const lookup = servedPageLookup(db);
      expect(lookup('https://hw.example/drivers/usb.html')).toBe('https://hw.example/drivers/usb.html');
      // The www. spelling redirects to the served host.
      expect(lookup('http://www.hw.example/drivers/usb.html')).toBe('http://hw.example/drivers/usb.html');
      expect(lookup('https://hw.example/drivers/none.html')).toBeUndefined();
      expect(lookup('https://gone.example/')).toBeUndefined();
    } finally {
      db.close();
    }
  });
});

describe('landingUrl', () => {
  it('follows the redirects the DocWeb server answers, and is undefined for hosts not served', () => {
    const handle = () => {};
    const router = new SiteRouter(
      [
        { host: 'www.sphinx-doc.org', prefix: '/en/master/', handle },
        { host: 'docs.python.org', prefix: '/3/', handle },
      ],
      { aliases: true },
    );
    expect(landingUrl(router, 'https://sphinx-doc.org/')).toBe('https://www.sphinx-doc.org/en/master/');
    expect(landingUrl(router, 'https://sphinx-doc.org/en/stable/usage.html')).toBe(
      'https://www.sphinx-doc.org/en/master/usage.html',
    );
    expect(landingUrl(router, 'https://docs.python.org/library/os.html?x=1')).toBe(
      'https://docs.python.org/3/library/os.html?x=1',
    );
    expect(landingUrl(router, 'https://github.com/x')).toBeUndefined();
  });
});
