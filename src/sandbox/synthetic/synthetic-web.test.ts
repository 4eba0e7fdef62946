import { describe, expect, it } from 'vitest';
import { ConfigError, createRng } from '../../common/index.js';
import { createSyntheticWeb } from './synthetic-web.js';

const small = { hostCount: 40, pageCount: 3000 };

function samplePages(web: ReturnType<typeof createSyntheticWeb>, count: number) {
  const rng = createRng('sample');
  return Array.from({ length: count }, () => web.pageAt(rng.int(web.pageCount)));
}

describe('createSyntheticWeb', () => {
  it('makes the same web byte for byte from the same seed', () => {
    const a = createSyntheticWeb({ ...small, seed: 'same' });
    const b = createSyntheticWeb({ ...small, seed: 'same' });
    expect(b.hosts).toEqual(a.hosts);
    for (const { host, index } of samplePages(a, 200)) {
      const url = new URL(a.urlOf(host, index));
      expect(b.renderPage(url.hostname, url.pathname)).toEqual(a.renderPage(url.hostname, url.pathname));
    }
  });

  it('makes a different web from a different seed', () => {
    const a = createSyntheticWeb({ ...small, seed: 1 });
    const b = createSyntheticWeb({ ...small, seed: 2 });
    expect(b.hosts).not.toEqual(a.hosts);
    let same = 0;
    for (const { host, index } of samplePages(a, 100)) {
      const html = (web: typeof a) =>
        web.renderPage(web.hosts[host] as string, new URL(web.urlOf(host, index)).pathname)?.html;
      if (html(a) === html(b)) same++;
    }
    expect(same).toBe(0);
  });

  it('serves home pages and /p/<n>.html pages, 404 for other paths, undefined for unknown hosts', () => {
    const web = createSyntheticWeb(small);
    const host = web.hosts[0] as string;
    const size = web.table.sizes[0] as number;
    expect(web.renderPage(host, '/')?.status).toBe(200);
    expect(web.renderPage(host.toUpperCase(), '/p/0.html')?.status).toBe(200);
    expect(web.renderPage(host, `/p/${size - 2}.html?x=1#top`)?.status).toBe(200);
    expect(web.renderPage(host, `/p/${size - 1}.html`)?.status).toBe(404);
    expect(web.renderPage(host, '/p/007.html')?.status).toBe(404);
    expect(web.renderPage(host, '/index.html')?.status).toBe(404);
    expect(web.renderPage('nowhere.test', '/')).toBeUndefined();
  });

  it('labels pages by topic and locates URLs given with https, ports or upper case', () => {
    const web = createSyntheticWeb(small);
    let relevant = 0;
    for (const { host, index } of samplePages(web, 500)) {
      const url = web.urlOf(host, index);
      expect(web.locate(url)).toEqual({ host, index });
      const topic = web.topicOf(url);
      expect(topic).toBe(web.topicAt(host, index));
      expect(web.labelOf(url)).toBe(topic === web.options.relevantTopic);
      if (web.labelOf(url)) relevant++;
      const variant = url.replace('http://', 'https://').replace('.test/', '.TEST:8443/');
      expect(web.labelOf(variant)).toBe(web.labelOf(url));
    }
    expect(relevant).toBeGreaterThan(0);
    expect(web.labelOf('http://nowhere.test/')).toBeUndefined();
    expect(web.labelOf(`http://${web.hosts[0]}/p/999999.html`)).toBeUndefined();
    expect(web.labelOf('not a url')).toBeUndefined();
  });

  it('renders every generated link into the page, resolvable against the page URL', () => {
    const web = createSyntheticWeb(small);
    for (const { host, index } of samplePages(web, 100)) {
      const pageUrl = web.urlOf(host, index);
      const html = web.renderPage(new URL(pageUrl).hostname, new URL(pageUrl).pathname)?.html as string;
      const hrefs = [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => new URL(m[1] as string, pageUrl));
      const rendered = new Set(hrefs.map((u) => `${u.origin}${u.pathname}`));
      for (const link of web.outLinks(host, index)) {
        const expected =
          link.kind === 'page'
            ? web.urlOf(link.host, link.index)
            : link.kind === 'missing'
              ? `http://${web.hosts[link.host]}${link.path}`
              : link.url;
        expect(rendered.has(expected), `${pageUrl} -> ${expected}`).toBe(true);
      }
      expect(rendered.has(`http://${web.hosts[host]}/`)).toBe(true); // the header's home link
    }
  });

  it('makes every page reachable from any home page', () => {
    const web = createSyntheticWeb({ hostCount: 30, pageCount: 4000, seed: 'reach' });
    const seen = new Uint8Array(web.pageCount);
    const start = web.locate(web.seedUrls(1)[0] as string);
    const queue = [start as { host: number; index: number }];
    const idOf = (h: number, i: number) => (web.table.offsets[h] as number) + i;
    seen[idOf(queue[0]?.host ?? 0, 0)] = 1;
    let reached = 1;
    while (queue.length > 0) {
      const page = queue.pop() as { host: number; index: number };
      for (const link of web.outLinks(page.host, page.index)) {
        if (link.kind !== 'page' || seen[idOf(link.host, link.index)]) continue;
        seen[idOf(link.host, link.index)] = 1;
        reached++;
        queue.push(link);
      }
    }
    expect(reached).toBe(web.pageCount);
  });

  it('names hosts with distinct registrable domains, some holding several subdomains', () => {
    const web = createSyntheticWeb();
    expect(new Set(web.hosts).size).toBe(web.hosts.length);
    for (const [h, name] of web.hosts.entries()) {
      expect(name).toMatch(/^[a-z0-9.-]+\.test$/);
      expect(name === web.table.domains[h] || name.endsWith(`.${web.table.domains[h]}`)).toBe(true);
    }
    const domains = new Set(web.table.domains);
    expect(domains.size).toBeLessThan(web.hosts.length);
    expect(domains.size).toBeGreaterThan(web.hosts.length / 2);
  });

  it('puts broken links to missing pages and to dead hosts on some pages', () => {
    const web = createSyntheticWeb(small);
    const kinds = new Set<string>();
    for (const { host, index } of samplePages(web, 600)) {
      for (const link of web.outLinks(host, index)) {
        kinds.add(link.kind);
        if (link.kind === 'missing')
          expect(web.renderPage(web.hosts[link.host] as string, link.path)?.status).toBe(404);
        if (link.kind === 'dead-host')
          expect(web.renderPage(new URL(link.url).hostname, '/')).toBeUndefined();
      }
    }
    expect([...kinds].sort()).toEqual(['dead-host', 'missing', 'page']);
  });

  it('picks seed URLs deterministically, filtered by the relevance of their home page', () => {
    const web = createSyntheticWeb(small);
    const relevant = web.seedUrls(3, { relevant: true });
    expect(relevant).toHaveLength(3);
    expect(relevant.every((url) => web.labelOf(url) === true)).toBe(true);
    expect(web.seedUrls(4, { relevant: false }).every((url) => web.labelOf(url) === false)).toBe(true);
    expect(web.seedUrls(3, { relevant: true })).toEqual(relevant);
    expect(new Set(web.seedUrls(1000)).size).toBe(web.hosts.length);
  });

  it('puts topic keywords in the text of keyword pages', () => {
    const web = createSyntheticWeb(small);
    let withKeyword = 0;
    const pages = samplePages(web, 300);
    for (const { host, index } of pages) {
      const html =
        web.renderPage(web.hosts[host] as string, new URL(web.urlOf(host, index)).pathname)?.html ?? '';
      const keyword = (web.topicAt(host, index).split(' ')[0] as string).toLowerCase();
      if (html.toLowerCase().includes(` ${keyword}`)) withKeyword++;
    }
    expect(withKeyword / pages.length).toBeGreaterThan(0.4);
    expect(withKeyword / pages.length).toBeLessThan(0.9);
  });

  it('rejects out-of-range options with a ConfigError naming the field', () => {
    expect(() => createSyntheticWeb({ hostCount: 10, pageCount: 5 })).toThrow(/pageCount/);
    expect(() => createSyntheticWeb({ shareWithinHost: 1.5 })).toThrow(ConfigError);
    expect(() => createSyntheticWeb({ relevantTopic: 'knitting' })).toThrow(/relevantTopic/);
    expect(() => createSyntheticWeb({ topics: ['a b', 'a b'] })).toThrow(/topics/);
    expect(
      createSyntheticWeb({ topics: ['knitting', 'sailing'], pageCount: 100, hostCount: 5 }).options
        .relevantTopic,
    ).toBe('knitting');
  });

  it('uses given real words as a topic vocabulary', () => {
    const web = createSyntheticWeb({
      ...small,
      topicVocabularies: { music: ['melody', 'rhythm', 'chord', 'tempo', 'harmony'] },
    });
    const musicPage = samplePages(web, 400).find(({ host, index }) => web.topicAt(host, index) === 'music');
    expect(musicPage).toBeDefined();
    const { host, index } = musicPage as { host: number; index: number };
    const html =
      web.renderPage(web.hosts[host] as string, new URL(web.urlOf(host, index)).pathname)?.html ?? '';
    expect(html).toMatch(/melody|rhythm|chord|tempo|harmony/);
  });
});
