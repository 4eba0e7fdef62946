import { describe, expect, it } from 'vitest';
import { ConfigError, createRng } from '../../common/index.js';
import type { Action, DiscoveredLink, Outcome, SelectionContext } from '../../types/index.js';
import { FieldWords } from '../ache/index.js';
import { createStrategy, StrategySpec } from '../registry.js';
import { resolveCoverageConfig } from './coverage-config.js';
import { CoverageStrategy } from './coverage-strategy.js';
import { OnlineLinkModel } from './online-link-model.js';
import { SiteYields, shrunk, siteOf } from './site-yields.js';

function link(url: string, anchorText = ''): DiscoveredLink {
  const host = new URL(url).host;
  return { url, host, domain: host, anchorText, depth: 1 };
}

function loop(): SelectionContext & { fetched: Set<string> } {
  const fetched = new Set<string>();
  return {
    fetched,
    isHostReady: () => true,
    isDomainOpen: () => true,
    isDomainClosed: () => false,
    isFetched: (url) => fetched.has(url),
    step: 0,
  };
}

function outcome(action: Action, reward: number, links: DiscoveredLink[] = []): Outcome {
  return { action, finalUrl: action.url, isPage: true, reward, probability: reward > 0 ? 0.9 : 0.1, links };
}

/** Runs `s` from a seed on hub.test whose page links to two pages of a.test and one of b.test. */
function crawl(s: CoverageStrategy, relevant: (url: string) => boolean): string[] {
  const ctx = loop();
  const graph: Record<string, DiscoveredLink[]> = {
    'http://hub.test/': [link('http://a.test/1'), link('http://a.test/2'), link('http://b.test/1')],
    'http://a.test/1': [link('http://a.test/3')],
  };
  s.seed([{ ...link('http://hub.test/'), depth: 0 }]);
  const order: string[] = [];
  for (let a = s.next(ctx); a; a = s.next(ctx)) {
    ctx.fetched.add(a.url);
    order.push(a.url);
    s.observe(outcome(a, relevant(a.url) ? 1 : 0, graph[a.url] ?? []));
  }
  return order;
}

describe('coverage', () => {
  it('values a URL found again only from a more probably relevant page or with a better-scored anchor (isRefoundScreened)', () => {
    const found = (
      s: CoverageStrategy,
      probability: number,
      anchorProbability: number,
      url = 'http://p.test/',
    ) =>
      s.observe({
        ...outcome({ url, host: 'p.test', domain: 'p.test', depth: 1 }, 0, [
          { ...link('http://x.test/'), anchorProbability },
        ]),
        probability,
      });
    const kept = (s: CoverageStrategy) => s.stats()['coverage/kept-as-queued'];
    const s = new CoverageStrategy();
    found(s, 0.6, 0.5);
    expect(kept(s)).toBe(0);
    found(s, 0.2, 0.3, 'http://p.test/2'); // a weaker page, a weaker anchor: kept as queued
    found(s, 0.6, 0.5, 'http://p.test/3'); // as strong as the queued one's: kept
    expect(kept(s)).toBe(2);
    found(s, 0.7, 0.1, 'http://p.test/4'); // a stronger page: valued again
    found(s, 0.1, 0.9, 'http://p.test/5'); // a better anchor: valued again
    expect(kept(s)).toBe(2);
    const unscreened = new CoverageStrategy({ overrides: { isRefoundScreened: false } });
    found(unscreened, 0.6, 0.5);
    found(unscreened, 0.2, 0.3, 'http://p.test/2');
    expect(kept(unscreened)).toBe(0);
  });
  it('drops the contexts of the links observe passes over, and only those (dropUnreadContexts)', () => {
    const withContext = (l: DiscoveredLink): DiscoveredLink => ({
      ...l,
      context: { tokens: ['telescope'], offsets: Int8Array.of(1) },
    });
    for (const isRefoundScreened of [true, false]) {
      const s = new CoverageStrategy({ overrides: { isRefoundScreened } });
      // [page P, anchor P of x.test's link]: as in the test above, the second and third pages'
      // links to x.test are kept as queued when screening is on.
      const pages: [number, number][] = [
        [0.6, 0.5],
        [0.2, 0.3],
        [0.6, 0.5],
        [0.7, 0.1],
        [0.1, 0.9],
      ];
      for (const [i, [probability, anchorProbability]] of pages.entries()) {
        const url = `http://p.test/${i}`;
        const links = [
          withContext({ ...link('http://x.test/'), anchorProbability }),
          withContext(link(`http://new${i}.test/`)),
        ];
        if (i > 0) links.push(withContext(link('http://p.test/0'))); // fetched
        const page = {
          ...outcome({ url, host: 'p.test', domain: 'p.test', depth: 1 }, 0, links),
          probability,
        };
        const kept = s.stats()['coverage/kept-as-queued'] as number;
        s.dropUnreadContexts(page);
        const dropped = page.links.map((l) => l.context === undefined);
        s.observe(page);
        const wasKept = (s.stats()['coverage/kept-as-queued'] as number) > kept;
        expect(wasKept).toBe(isRefoundScreened && (i === 1 || i === 2));
        expect(dropped).toEqual(i === 0 ? [false, false] : [wasKept, false, true]);
      }
    }
  });
  it("after dropUnreadContexts, observe queues no link to the page's own URL or the URL it redirected to", () => {
    const s = new CoverageStrategy();
    const ctx = loop();
    s.seed([link('http://a.test/'), link('http://b.test/')]);
    const action = s.next(ctx) as Action;
    const page: Outcome = {
      ...outcome(action, 1, [link(action.url), link(`${action.url}moved`), link('http://c.test/')]),
      finalUrl: `${action.url}moved`,
    };
    // Screened before observe marks the page's URLs fetched: those two were not fetched then.
    s.dropUnreadContexts(page);
    s.observe(page);
    const rest: string[] = [];
    for (let a = s.next(ctx); a; a = s.next(ctx)) rest.push(a.url);
    const otherSeed = action.url === 'http://a.test/' ? 'http://b.test/' : 'http://a.test/';
    expect(rest.sort()).toEqual([otherSeed, 'http://c.test/']);
  });

  it('rescores once after a replay, at the first step, not while replaying', () => {
    const s = new CoverageStrategy({ overrides: { rescoreEveryPages: 2 } });
    const ctx = loop();
    s.seed([{ ...link('http://hub.test/'), depth: 0 }]);
    for (let page = 0; page < 6; page++) {
      const action = {
        url: `http://p${page}.test/`,
        host: `p${page}.test`,
        domain: `p${page}.test`,
        depth: 1,
      };
      ctx.fetched.add(action.url);
      s.observe({ ...outcome(action, 1, [link(`http://q${page}.test/`)]), isReplay: true });
    }
    expect(s.stats()['coverage/rescorings']).toBe(0);
    s.next(ctx);
    expect(s.stats()['coverage/rescorings']).toBe(1);
    s.next(ctx);
    expect(s.stats()['coverage/rescorings']).toBe(1);
  });
  it('rescores every rescoreEveryPages pages, and every frontier / 50 pages once the frontier is larger', () => {
    const s = new CoverageStrategy({ overrides: { rescoreEveryPages: 2 } });
    const ctx = loop();
    s.seed([{ ...link('http://hub.test/'), depth: 0 }]);
    const rescorings: number[] = [];
    for (let page = 0; page < 12; page++) {
      const a = s.next(ctx);
      if (!a) throw new Error('frontier ran dry');
      ctx.fetched.add(a.url);
      // The first page links to 250 pages: a frontier of 240-250 links, rescored every 5 pages.
      const links = page === 0 ? Array.from({ length: 250 }, (_, i) => link(`http://s${i}.test/`)) : [];
      s.observe(outcome(a, 0, links));
      rescorings.push(s.stats()['coverage/rescorings'] as number);
    }
    expect(rescorings).toEqual([0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2]);
  });
  it('prefers the first page of a site with no relevant page over another page of a site that has one', () => {
    const everything = () => true;
    // a.test/1 comes first (ties by URL); then a.test holds a relevant page, so b.test/1 (a new
    // site, worth 1 + newSiteValue) goes before a.test/2 and a.test/3.
    const once = { isLinkLearning: false, siteSaturation: false, siteShareValue: false } as const;
    expect(crawl(new CoverageStrategy({ overrides: once }), everything)).toEqual([
      'http://hub.test/',
      'http://a.test/1',
      'http://b.test/1',
      'http://a.test/2',
      'http://a.test/3',
    ]);
    // With newSiteValue=0 and no yields it is best-first: equal parents, ties by URL.
    const plain = new CoverageStrategy({ overrides: { ...once, newSiteValue: 0 } });
    expect(crawl(plain, everything)).toEqual([
      'http://hub.test/',
      'http://a.test/1',
      'http://a.test/2',
      'http://a.test/3',
      'http://b.test/1',
    ]);
  });

  it('with siteSaturation, values a site that gave relevant pages less than one that gave none', () => {
    const everything = () => true;
    // No new-site value: only the saturation puts b.test/1 before a.test's second and third pages
    // (a.test gave one relevant page: its next is worth 1 / (1 + 1 / 1) = 0.5).
    const saturated = new CoverageStrategy({
      overrides: { isLinkLearning: false, newSiteValue: 0, siteSaturation: 1 },
    });
    expect(crawl(saturated, everything)).toEqual([
      'http://hub.test/',
      'http://a.test/1',
      'http://b.test/1',
      'http://a.test/2',
      'http://a.test/3',
    ]);
    expect(() => resolveCoverageConfig({ siteSaturation: 0 })).toThrow(/siteSaturation/);
  });

  it('with newSitePatience, leaves a site whose pages are not relevant for a site not yet tried', () => {
    const nothing = () => false;
    const fixed = { isLinkLearning: false, siteSaturation: false } as const;
    // Without patience every link is worth p * (1 + 3) while its site has no relevant page: ties
    // by URL, so a.test is emptied first.
    const impatient = new CoverageStrategy({ overrides: { ...fixed, newSitePatience: false } });
    expect(crawl(impatient, nothing)).toEqual([
      'http://hub.test/',
      'http://a.test/1',
      'http://a.test/2',
      'http://a.test/3',
      'http://b.test/1',
    ]);
    // With patience 1 (the default), one page of a.test that is not relevant halves its new-site
    // value: b.test/1 (still worth 1 + 3) goes before a.test's other pages (1 + 3 / 2).
    const patient = new CoverageStrategy({ overrides: fixed });
    expect(crawl(patient, nothing)).toEqual([
      'http://hub.test/',
      'http://a.test/1',
      'http://b.test/1',
      'http://a.test/2',
      'http://a.test/3',
    ]);
    expect(() => resolveCoverageConfig({ newSitePatience: 0 })).toThrow(/newSitePatience/);
  });

  it('with hubSites=1, goes back to a site whose pages led to a new relevant site', () => {
    const ctx = loop();
    // seed.test links to docs.test/1 and hub.test/1, each judged relevant; hub.test/1 links to a
    // home page x.test and to hub.test/2, docs.test/1 to docs.test/2. The two sites differ only
    // in whether x.test, first found through hub.test, is relevant.
    const graph: Record<string, DiscoveredLink[]> = {
      'http://seed.test/': [link('http://docs.test/1'), link('http://hub.test/1')],
      'http://docs.test/1': [link('http://docs.test/2')],
      'http://hub.test/1': [link('http://x.test/'), link('http://hub.test/2')],
    };
    const order = (isHomeRelevant: boolean) => {
      const s = new CoverageStrategy({
        overrides: { isLinkLearning: false, isHubSiteValued: true, rescoreEveryPages: 1 },
      });
      s.seed([{ ...link('http://seed.test/'), depth: 0 }]);
      const fetched: string[] = [];
      ctx.fetched.clear();
      for (let a = s.next(ctx); a; a = s.next(ctx)) {
        ctx.fetched.add(a.url);
        fetched.push(a.url);
        s.observe(outcome(a, a.url === 'http://x.test/' && !isHomeRelevant ? 0 : 1, graph[a.url] ?? []));
      }
      return fetched.slice(4);
    };
    // x.test relevant: hub.test has led to a new relevant site, docs.test has not.
    expect(order(true)).toEqual(['http://hub.test/2', 'http://docs.test/2']);
    // x.test not relevant: the two sites are alike, and ties go by URL.
    expect(order(false)).toEqual(['http://docs.test/2', 'http://hub.test/2']);
  });

  it('with context=0 asks for no link contexts and ignores them; with anchors=1 (the default) asks for anchor scores', () => {
    const byDefault = new CoverageStrategy();
    expect([byDefault.needsLinkContext, byDefault.needsAnchorScores]).toEqual([true, true]);
    const plain = new CoverageStrategy({ overrides: { isContextUsed: false, isAnchorScoreUsed: false } });
    expect([plain.needsLinkContext, plain.needsAnchorScores]).toEqual([false, false]);
    const words = new FieldWords();
    const withContext: DiscoveredLink = {
      ...link('http://a.test/x', 'manual'),
      context: { tokens: ['kernel', 'manual', 'drivers'], offsets: Int8Array.from([-1, 0, 1]) },
    };
    const all = words.encode(withContext);
    const bare = words.encode(withContext, false);
    expect([...all].map((id) => words.nameOf(id)).sort()).toEqual([
      'anchor:manual',
      'around:drivers',
      'around:kernel',
      'url:test',
    ]);
    expect([...bare].map((id) => words.nameOf(id)).sort()).toEqual(['anchor:manual', 'url:test']);
  });

  it('with anchors=1 learns that links the judge scores high lead to relevant pages', () => {
    // Links of equal parents and no shared words: only the anchor score tells them apart.
    const s = new CoverageStrategy({ overrides: { isAnchorScoreUsed: true, newSiteValue: 0 } });
    const ctx = loop();
    const scored = (url: string, p: number): DiscoveredLink => ({ ...link(url), anchorProbability: p });
    const links = Array.from({ length: 200 }, (_, i) =>
      i % 2 === 0 ? scored(`http://a.test/good${i}`, 0.9) : scored(`http://a.test/bad${i}`, 0.1),
    );
    s.seed([{ ...link('http://a.test/'), depth: 0 }]);
    const seed = s.next(ctx) as Action;
    ctx.fetched.add(seed.url);
    s.observe({ ...outcome(seed, 1, links), probability: 0.5 });
    for (let a = s.next(ctx); a; a = s.next(ctx)) {
      ctx.fetched.add(a.url);
      s.observe({ ...outcome(a, a.url.includes('good') ? 1 : 0), probability: 0.5 });
    }
    // The last 40 fetched are mostly the low-scored links: the high ones went first once learned.
    const order = [...ctx.fetched].slice(1);
    const lateGood = order.slice(-40).filter((u) => u.includes('good')).length;
    expect(lateGood).toBeLessThan(10);
  });

  it('checkpoints only the words the model learned, and a restored strategy values links the same', () => {
    const a = new CoverageStrategy();
    crawl(a, (url) => url.includes('a.test'));
    const checkpoint = a.checkpoint();
    expect(checkpoint.format).toBe(2);
    expect(checkpoint.words.length).toBe(checkpoint.model.weights.length);
    expect(checkpoint.words.every((_, i) => (checkpoint.model.squares[i] as number) > 0)).toBe(true);
    const b = new CoverageStrategy();
    b.restore(checkpoint);
    const again = b.checkpoint();
    expect(again.words).toEqual(checkpoint.words);
    expect([...again.model.weights]).toEqual([...checkpoint.model.weights]);
  });

  it('with siteShareValue, sets lambda to that share of the relevant pages per relevant site so far', () => {
    const s = new CoverageStrategy({ overrides: { siteShareValue: 0.5 } });
    expect(s.stats()['coverage/lambda']).toBe(3); // newSiteValue before any page
    // Every page relevant: 5 pages from 3 sites (hub.test, a.test, b.test), 5 pseudo-sites of 3 / 0.5 pages.
    crawl(s, () => true);
    expect(s.stats()['coverage/lambda']).toBeCloseTo((0.5 * (5 + 5 * 6)) / (3 + 5), 12);
    expect(() => resolveCoverageConfig({ siteShareValue: 0 })).toThrow(/siteShareValue/);
  });

  it("with gain=probability, counts a page's probability as its gain and a site as covered with the chance that one of its pages is relevant", () => {
    const s = new CoverageStrategy({ overrides: { siteShareValue: 0.5, gain: 'probability' } });
    // Every page judged relevant at P 0.9 (see outcome()): relevant pages 5 x 0.9; covered sites
    // hub.test 0.9, b.test 0.9, a.test (3 pages) 1 - 0.1^3 = 0.999.
    crawl(s, () => true);
    expect(s.stats()['coverage/lambda']).toBeCloseTo((0.5 * (4.5 + 5 * 6)) / (2.799 + 5), 12);
    // A duplicate gains nothing, whatever its probability.
    const d = new CoverageStrategy({ overrides: { siteShareValue: 0.5, gain: 'probability' } });
    d.seed([{ ...link('http://hub.test/'), depth: 0 }]);
    const a = d.next(loop()) as Action;
    d.observe({ ...outcome(a, 0), probability: 0.9, isDuplicate: true });
    expect(d.stats()['coverage/lambda']).toBeCloseTo((0.5 * (0 + 5 * 6)) / (0 + 5), 12);
  });

  it('takes gain=auto as the probability when pages are judged by keywords alone, else as the verdict, and keeps what it chose', () => {
    const rng = createRng(1);
    const gain = (spec: string, isKeywordJudged?: boolean) =>
      (createStrategy(spec, { rng, ...(isKeywordJudged ? { isKeywordJudged } : {}) }) as CoverageStrategy)
        .config.gain;
    expect(gain('coverage', true)).toBe('probability');
    expect(gain('coverage')).toBe('verdict');
    expect(gain('coverage:gain=verdict', true)).toBe('verdict');
    expect(gain('coverage:gain=probability')).toBe('probability');
    expect(new CoverageStrategy().config.gain).toBe('verdict');
    // The old switch still reads, with a line saying what to write.
    const old = StrategySpec.parse('coverage:isProbabilityGain=true');
    expect(old.settings).toEqual({ gain: 'probability' });
    expect(old.deprecations.join()).toMatch(/write gain=probability/);
  });

  it('rejects settings out of range, naming them', () => {
    expect(() => resolveCoverageConfig({ newSiteValue: -1 })).toThrow(ConfigError);
    expect(() => resolveCoverageConfig({ learningRate: 0 })).toThrow(/learningRate/);
    expect(resolveCoverageConfig({ rescoreEveryPages: false }).rescoreEveryPages).toBe(false);
    expect(() => resolveCoverageConfig({ rescoreEveryPages: 0 })).toThrow(/rescoreEveryPages/);
  });
});

describe('coverage estimates', () => {
  it('shrinks a yield to its prior by k pseudo-observations', () => {
    expect(shrunk(0, 0, 0.3, 4)).toBeCloseTo(0.3);
    expect(shrunk(3, 4, 0.5, 4)).toBeCloseTo((3 + 2) / 8);
    expect(siteOf('www.a.test')).toBe('a.test');
  });

  it('counts off-site links of a parent page and its site as hub yields', () => {
    const y = new SiteYields();
    const hub = y.siteId('hub.test');
    const a = y.siteId('a.test');
    const p = y.addParent(hub);
    y.record(a, 1, p);
    y.record(hub, 0, p); // same site: not a hub link
    // site level: 1 of 1 -> (1 + 4 * 0.2) / 5 = 0.36; page level: (1 + 4 * 0.36) / 5
    expect(y.hubEstimate(p, 0.2, 4)).toBeCloseTo((1 + 4 * 0.36) / 5);
    expect(y.siteEstimate(hub, 0.2, 4)).toBeCloseTo((0 + 0.8) / 5);
    expect(y.uncoveredOf(a)).toBe(0);
    expect(y.uncoveredOf(hub)).toBe(1);
  });

  it('credits a site with the relevant sites first found through links out of its pages', () => {
    const y = new SiteYields();
    const hub = y.siteId('hub.test');
    const docs = y.siteId('docs.test');
    const [a, b] = [y.siteId('a.test'), y.siteId('b.test')];
    y.record(hub, 0, -1);
    y.record(docs, 1, -1);
    const fromHub = y.addParent(hub);
    y.record(a, 1, fromHub); // a.test's first relevant page: a find of hub.test's
    y.record(a, 1, fromHub); // a.test is covered already: no find
    y.record(b, 0, fromHub); // not relevant: no find
    y.record(docs, 1, y.addParent(docs)); // same site: no find
    // 1 find over 6 fetches: the prior. hub.test: (1 + 1/6) / (1 + 1); docs.test: (0 + 1/6) / (2 + 1).
    expect(y.sitesFoundPerPage(hub, 1)).toBeCloseTo((1 + 1 / 6) / 2);
    expect(y.sitesFoundPerPage(docs, 1)).toBeCloseTo(1 / 6 / 3);
    expect(y.sitesFoundPerPage(y.siteId('new.test'), 1)).toBeCloseTo(1 / 6);
  });

  it('starts at the parent probability and learns which words lead to relevant pages', () => {
    const m = new OnlineLinkModel(0.05, 2);
    const parent = (p: number) => [Math.log(p / (1 - p)), 0];
    expect(m.probability([1, 2], parent(0.3))).toBeCloseTo(0.3);
    for (let i = 0; i < 200; i++) {
      m.update([1], parent(0.5), 1);
      m.update([2], parent(0.5), 0);
    }
    expect(m.probability([1], parent(0.5))).toBeGreaterThan(0.7);
    expect(m.probability([2], parent(0.5))).toBeLessThan(0.3);
  });

  it('scores a link whose word ids are a range of a pool exactly as one given its ids alone', () => {
    const m = new OnlineLinkModel(0.05, 2);
    for (let i = 0; i < 50; i++) {
      m.update([1, 3, 7], [0.4, 1], 1);
      m.update([2, 3, 9], [-0.2, 0], 0);
    }
    const pool = new Int32Array([9, 1, 3, 7, 2]);
    expect(m.probabilityIn(pool, 1, 4, [0.1, 1])).toBe(m.probability([1, 3, 7], [0.1, 1]));
    expect(m.probabilityIn(pool, 2, 2, [0.1, 1])).toBe(m.probability([], [0.1, 1]));
  });
});
