import { describe, expect, it } from 'vitest';
import { RetryLaterError, SkipUrlError } from '../common/index.js';
import type { FetchResult } from './fetch-result.js';
import { type RobotsFetch, RobotsTxtCache } from './robots-txt.js';
import { FakeClock } from './test-clock.js';

function response(url: string, status: number, text = '', location?: string): FetchResult {
  const body = Buffer.from(text);
  return {
    url,
    status,
    statusText: '',
    headers: {},
    rawHeaders: [],
    contentType: 'text/plain',
    charset: 'utf-8',
    body,
    rawBody: body,
    text,
    location,
    isTruncated: false,
    remoteAddress: undefined,
    requestHeaders: {},
    httpVersion: '1.1',
    fetchedAt: 0,
    durationMs: 0,
    bytesOnWire: body.length,
  };
}

/** A robots fetch answering from a table of url -> responder; counts calls per URL. */
function fakeFetch(table: Record<string, (url: string) => FetchResult | Promise<FetchResult>>) {
  const calls: string[] = [];
  const fetch: RobotsFetch = async (url) => {
    calls.push(url);
    const answer = table[url];
    if (!answer) return response(url, 404);
    return answer(url);
  };
  return { fetch, calls };
}

const RULES = [
  'User-agent: *',
  'Disallow: /private',
  'Crawl-delay: 2',
  '',
  'User-agent: tres',
  'Disallow: /no-tres',
  'Allow: /no-tres/but-this',
  'Crawl-delay: 0.5',
  '',
  'Sitemap: https://a.test/sitemap.xml',
].join('\n');

describe('RobotsTxtCache', () => {
  it('applies the group of our token, with its Crawl-delay', async () => {
    const { fetch } = fakeFetch({ 'https://a.test/robots.txt': (u) => response(u, 200, RULES) });
    const robots = new RobotsTxtCache(fetch);
    expect(await robots.isAllowed('https://a.test/no-tres/x')).toEqual({
      isAllowed: false,
      crawlDelayMs: 500,
      isUnavailable: false,
    });
    expect((await robots.isAllowed('https://a.test/no-tres/but-this')).isAllowed).toBe(true);
    // Only the most specific group applies: /private is disallowed for * but not for tres.
    expect((await robots.isAllowed('https://a.test/private')).isAllowed).toBe(true);
    expect(await robots.sitemaps('https://a.test')).toEqual(['https://a.test/sitemap.xml']);
  });

  it('falls back to the * group and its Crawl-delay for another token', async () => {
    const { fetch } = fakeFetch({ 'https://a.test/robots.txt': (u) => response(u, 200, RULES) });
    const robots = new RobotsTxtCache(fetch, { userAgentToken: 'otherbot' });
    expect(await robots.isAllowed('https://a.test/private/x')).toMatchObject({
      isAllowed: false,
      crawlDelayMs: 2000,
    });
  });

  it('allows everything when robots.txt is 404', async () => {
    const robots = new RobotsTxtCache(fakeFetch({}).fetch);
    expect(await robots.isAllowed('http://b.test/anything')).toEqual({
      isAllowed: true,
      isUnavailable: false,
    });
  });

  it('disallows everything while robots.txt answers 5xx, then tries again after errorTtlMs', async () => {
    const clock = new FakeClock();
    let status = 500;
    const { fetch, calls } = fakeFetch({
      'http://c.test/robots.txt': (u) => {
        if (status >= 500) throw new RetryLaterError('TRES_HTTP_5XX', 'down');
        return response(u, 200, 'User-agent: *\nDisallow: /x');
      },
    });
    const robots = new RobotsTxtCache(fetch, { errorTtlMs: 600_000 }, { clock });
    expect(await robots.isAllowed('http://c.test/page')).toEqual({
      isAllowed: false,
      isUnavailable: true,
      retryAfterMs: 600_000,
      hasAnswered: true,
    });
    await clock.advance(599_999);
    expect((await robots.isAllowed('http://c.test/page')).isUnavailable).toBe(true);
    expect(calls.length).toBe(1);
    status = 200;
    await clock.advance(1);
    expect(await robots.isAllowed('http://c.test/page')).toEqual({ isAllowed: true, isUnavailable: false });
    expect(calls.length).toBe(2);
  });

  it('says whether an unreachable origin ever answered: never for a connection failure, always once it gave a response', async () => {
    const clock = new FakeClock();
    let isUp = false;
    const { fetch } = fakeFetch({
      'http://dead.test/robots.txt': () => {
        throw new RetryLaterError('TRES_CONNECTION_RESET', 'reset');
      },
      'http://flaky.test/robots.txt': (u) => {
        if (!isUp) throw new RetryLaterError('TRES_CONNECTION_RESET', 'reset');
        return response(u, 200, 'User-agent: *\nDisallow: /x');
      },
    });
    const robots = new RobotsTxtCache(fetch, { errorTtlMs: 1000, cacheTtlMs: 5000 }, { clock });
    expect(await robots.isAllowed('http://dead.test/a')).toMatchObject({
      isUnavailable: true,
      hasAnswered: false,
    });
    await clock.advance(1000);
    expect(await robots.isAllowed('http://dead.test/a')).toMatchObject({
      isUnavailable: true,
      hasAnswered: false,
    });
    expect((await robots.isAllowed('http://flaky.test/a')).hasAnswered).toBe(false);
    isUp = true;
    await clock.advance(1000);
    expect((await robots.isAllowed('http://flaky.test/a')).isAllowed).toBe(true);
    // Read once, then unreachable when its rules expire: an origin that answered before.
    isUp = false;
    await clock.advance(5000);
    expect(await robots.isAllowed('http://flaky.test/a')).toMatchObject({
      isUnavailable: true,
      hasAnswered: true,
    });
    await clock.advance(2000);
    expect(await robots.isAllowed('http://flaky.test/a')).toMatchObject({
      isUnavailable: true,
      hasAnswered: true,
    });
  });

  it('waits twice as long after each failure in a row, up to maxErrorTtlMs', async () => {
    const clock = new FakeClock();
    const { fetch, calls } = fakeFetch({
      'http://e.test/robots.txt': () => {
        throw new RetryLaterError('TRES_HTTP_5XX', 'down');
      },
    });
    const robots = new RobotsTxtCache(
      fetch,
      { errorTtlMs: 1000, maxErrorTtlMs: 3000, maxUnreachableMs: false },
      { clock },
    );
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      const decision = await robots.isAllowed('http://e.test/page');
      expect(decision.isUnavailable).toBe(true);
      waits.push(decision.retryAfterMs ?? -1);
      await clock.advance(decision.retryAfterMs ?? 0);
    }
    expect(waits).toEqual([1000, 2000, 3000, 3000]);
    expect(calls.length).toBe(4);
  });

  it('gives an origin up with TRES_ROBOTS_UNAVAILABLE once robots.txt stayed unreachable for maxUnreachableMs', async () => {
    const clock = new FakeClock();
    let isDown = true;
    const { fetch } = fakeFetch({
      'http://f.test/robots.txt': (u) => {
        if (isDown) throw new RetryLaterError('TRES_CONNECTION_RESET', 'reset');
        return response(u, 200, 'User-agent: *\nAllow: /');
      },
    });
    const robots = new RobotsTxtCache(
      fetch,
      { errorTtlMs: 1000, maxUnreachableMs: 2500, cacheTtlMs: 10_000 },
      { clock },
    );
    expect((await robots.isAllowed('http://f.test/a')).retryAfterMs).toBe(1000);
    await clock.advance(1000);
    expect((await robots.isAllowed('http://f.test/a')).retryAfterMs).toBe(2000);
    await clock.advance(2000);
    await expect(robots.isAllowed('http://f.test/a')).rejects.toMatchObject({
      code: 'TRES_ROBOTS_UNAVAILABLE',
    });
    // Given up until cacheTtlMs passes, then robots.txt is asked again.
    isDown = false;
    await clock.advance(9_999);
    await expect(robots.isAllowed('http://f.test/a')).rejects.toBeInstanceOf(SkipUrlError);
    await clock.advance(1);
    expect(await robots.isAllowed('http://f.test/a')).toEqual({ isAllowed: true, isUnavailable: false });
  });

  it('keeps a read robots.txt cached while more origins than maxCachedOrigins fail to answer', async () => {
    const clock = new FakeClock();
    // Every origin but live.test resets the connection (a web's dead hosts).
    const calls: string[] = [];
    const robots = new RobotsTxtCache(
      async (url) => {
        calls.push(url);
        if (url === 'http://live.test/robots.txt') return response(url, 200, 'User-agent: *\nDisallow: /x');
        throw new RetryLaterError('TRES_CONNECTION_RESET', 'reset');
      },
      { maxCachedOrigins: 3 },
      { clock },
    );
    expect((await robots.isAllowed('http://live.test/a')).isAllowed).toBe(true);
    for (let i = 0; i < 10; i++) await robots.isAllowed(`http://dead-${i}.test/`);
    expect((await robots.isAllowed('http://live.test/x')).isAllowed).toBe(false);
    expect(calls.filter((u) => u === 'http://live.test/robots.txt')).toHaveLength(1);
  });

  it('keeps each unreachable origin’s streak among more failing origins than maxCachedOrigins', async () => {
    const clock = new FakeClock();
    const robots = new RobotsTxtCache(
      async () => {
        throw new RetryLaterError('TRES_CONNECTION_RESET', 'reset');
      },
      { errorTtlMs: 1000, maxCachedOrigins: 3 },
      { clock },
    );
    const origins = Array.from({ length: 10 }, (_, i) => `http://dead-${i}.test/`);
    for (const url of origins) expect((await robots.isAllowed(url)).retryAfterMs).toBe(1000);
    await clock.advance(1000);
    // The second failure in a row of each: the wait doubles, for every one of them.
    for (const url of origins) expect((await robots.isAllowed(url)).retryAfterMs).toBe(2000);
  });

  it('caches rules for cacheTtlMs and shares one fetch among concurrent lookups', async () => {
    const clock = new FakeClock();
    const { fetch, calls } = fakeFetch({
      'http://d.test/robots.txt': async (u) => {
        await new Promise((r) => setTimeout(r, 20));
        return response(u, 200, 'User-agent: *\nDisallow: /x');
      },
    });
    const robots = new RobotsTxtCache(fetch, {}, { clock });
    const answers = await Promise.all(
      ['/a', '/x', '/b', '/x/y'].map((p) => robots.isAllowed(`http://d.test${p}`)),
    );
    expect(answers.map((a) => a.isAllowed)).toEqual([true, false, true, false]);
    expect(calls.length).toBe(1);
    await clock.advance(86_400_000 - 1);
    await robots.isAllowed('http://d.test/a');
    expect(calls.length).toBe(1);
    await clock.advance(1);
    await robots.isAllowed('http://d.test/a');
    expect(calls.length).toBe(2);
  });

  it('keeps one entry per origin (scheme, host and port)', async () => {
    const { fetch, calls } = fakeFetch({});
    const robots = new RobotsTxtCache(fetch);
    await robots.isAllowed('http://e.test/');
    await robots.isAllowed('https://e.test/');
    await robots.isAllowed('http://e.test:8080/');
    expect(calls).toEqual([
      'http://e.test/robots.txt',
      'https://e.test/robots.txt',
      'http://e.test:8080/robots.txt',
    ]);
  });

  it('follows up to five redirects, applying the rules to the original origin', async () => {
    const table: Record<string, (u: string) => FetchResult> = {
      'http://f.test/robots.txt': (u) => response(u, 301, '', 'http://cdn.test/1'),
      'http://cdn.test/5': (u) => response(u, 200, 'User-agent: *\nDisallow: /secret'),
    };
    for (let i = 1; i < 5; i++)
      table[`http://cdn.test/${i}`] = (u) => response(u, 302, '', `http://cdn.test/${i + 1}`);
    const robots = new RobotsTxtCache(fakeFetch(table).fetch);
    expect((await robots.isAllowed('http://f.test/secret')).isAllowed).toBe(false);
  });

  it('treats more than five redirects as no robots.txt', async () => {
    const table: Record<string, (u: string) => FetchResult> = {};
    for (let i = 0; i < 10; i++)
      table[`http://g.test/${i}`] = (u) => response(u, 302, '', `http://g.test/${i + 1}`);
    table['http://g.test/robots.txt'] = (u) => response(u, 302, '', 'http://g.test/0');
    table['http://g.test/5'] = (u) => response(u, 200, 'User-agent: *\nDisallow: /');
    const { fetch, calls } = fakeFetch(table);
    const robots = new RobotsTxtCache(fetch);
    expect((await robots.isAllowed('http://g.test/page')).isAllowed).toBe(true);
    expect(calls.length).toBe(6);
  });

  it('remembers and re-throws failures no retry cures', async () => {
    const { fetch, calls } = fakeFetch({
      'http://h.test/robots.txt': () => {
        throw new SkipUrlError('TRES_DNS', 'no such host');
      },
    });
    const robots = new RobotsTxtCache(fetch);
    await expect(robots.isAllowed('http://h.test/a')).rejects.toMatchObject({ code: 'TRES_DNS' });
    await expect(robots.isAllowed('http://h.test/b')).rejects.toMatchObject({ code: 'TRES_DNS' });
    expect(calls.length).toBe(1);
  });

  it('fetches nothing with respectRobotsTxt false', async () => {
    const { fetch, calls } = fakeFetch({});
    const robots = new RobotsTxtCache(fetch, { respectRobotsTxt: false });
    expect((await robots.isAllowed('http://i.test/')).isAllowed).toBe(true);
    expect(calls).toEqual([]);
  });

  it('asks the fetcher for any content type, truncated at 500 KiB', async () => {
    const seen: unknown[] = [];
    const robots = new RobotsTxtCache(async (url, options) => {
      seen.push(options);
      return response(url, 404);
    });
    await robots.isAllowed('http://j.test/');
    expect(seen[0]).toMatchObject({
      allowedContentTypes: false,
      maxBodyBytes: 512_000,
      shouldTruncateBody: true,
    });
  });
});
