import { describe, expect, it } from 'vitest';
import type { Clock } from '../common/index.js';
import { createRng, SkipUrlError } from '../common/index.js';
import { generatePage } from './parse-html.bench.js';
import { parseHtml } from './parse-html.js';
import { PARSE_TIMEOUT_CODE, parseHtmlBounded } from './parse-html-bounded.js';
import { withPlainLinks } from './test-helpers.js';

const PAGE = 'http://example.com/';

/**
 * Parses `html`, checks it went at 1 MB/s at least (2 s at least for small pages), and returns
 * the page. Ordinary markup parses at some 30 MB/s; htmlparser2's Parser (open-tag stack kept
 * with unshift) took 6 s for 200,000 nested divs here and minutes for a million. The slack
 * keeps a loaded machine (load average 17 on 2 cores was seen) from failing the test.
 */
function parseFast(html: string): ReturnType<typeof parseHtml> {
  const start = performance.now();
  const page = parseHtml(html, PAGE);
  const ms = performance.now() - start;
  expect(ms).toBeLessThan(Math.max(2_000, html.length / 1_000));
  return page;
}

/** A clock whose every reading is `stepMs` later than the one before. */
function steppingClock(stepMs: number): Clock {
  let now = 0;
  return {
    now: () => now,
    monotonicMs: () => {
      now += stepMs;
      return now;
    },
    sleep: async () => {},
  };
}

describe('parseHtml on pathological markup', { timeout: 60_000 }, () => {
  it('parses 200,000 nested divs fast', () => {
    const page = parseFast(`${'<div>'.repeat(200_000)}deep <a href="/in">in</a>`);
    expect(page.text).toBe('deep in');
    expect(page.links.map((l) => l.url)).toEqual(['http://example.com/in']);
  });

  it('parses 1,000,000 nested divs (5 MB) fast', () => {
    const page = parseFast(`<title>t</title>${'<div>'.repeat(1_000_000)}x${'</div>'.repeat(10)}`);
    expect([page.title, page.text]).toEqual(['t', 'x']);
  });

  it('parses 1,000,000 unclosed anchors fast, keeping maxLinks of them', () => {
    const page = parseFast('<a href=x>'.repeat(1_000_000));
    expect(page.links).toHaveLength(10_000);
  });

  it('parses 1,000,000 nested table-row-cell triples fast', () => {
    const page = parseFast(`${'<table><tr><td>'.repeat(1_000_000)}cell`);
    expect(page.text).toBe('cell');
  });

  it('parses half a million stray closing tags under a deep stack fast', () => {
    const page = parseFast(`${'<div>'.repeat(500_000)}${'</span>'.repeat(500_000)}end`);
    expect(page.text).toBe('end');
  });

  it('parses a tag with 300,000 attributes and a million nested svg elements fast', () => {
    const attributes = Array.from({ length: 300_000 }, (_, i) => `data-${i}="${i}"`).join(' ');
    const a = parseFast(`<a ${attributes} href="/x" rel=nofollow>link</a>`);
    expect(a.links).toEqual([{ url: 'http://example.com/x', anchorText: 'link', isNofollow: true }]);
    const svg = parseFast(`${'<svg>'.repeat(1_000_000)}<a href=/s />`);
    expect(svg.links).toHaveLength(1);
  });

  it('parses 5 MB of one text node and a million entities fast, capping the text', () => {
    const text = parseFast(`<p>${'word '.repeat(1_000_000)}</p>`);
    expect(text.text.length).toBe(199_999); // 200,000 cut at a space, then trimmed
    const entities = parseFast(`<p>${'&amp;'.repeat(1_000_000)}</p>`);
    expect(entities.text.length).toBe(200_000);
  });

  it('parses 100,000 comments fast', () => {
    const page = parseFast(`${'<!-- c --><p>'.repeat(100_000)}after`);
    expect(page.text).toBe('after');
  });
});

describe('parseHtmlBounded', () => {
  it('gives the same page as parseHtml, whatever the slice size', async () => {
    const html = generatePage(createRng('bounded'), 30_000);
    const whole = withPlainLinks(parseHtml(html, PAGE, { withContext: true }));
    expect(whole.links.some((l) => (l.context?.tokens.length ?? 0) > 0)).toBe(true);
    for (const sliceChars of [97, 65_536]) {
      expect(withPlainLinks(await parseHtmlBounded(html, PAGE, { withContext: true, sliceChars }))).toEqual(
        whole,
      );
    }
  });

  it('lets other work run while it parses a big page', async () => {
    let ticks = 0;
    let isParsing = true;
    const tick = (): void => {
      ticks++;
      if (isParsing) setImmediate(tick);
    };
    setImmediate(tick);
    const html = `${'<div>'.repeat(200_000)}x`;
    const page = await parseHtmlBounded(html, PAGE, { timeBudgetMs: false, sliceChars: 16_384 });
    isParsing = false;
    expect(page.text).toBe('x');
    // 1 MB in slices of 16 Ki characters: 62 slices, a yield between two.
    expect(ticks).toBeGreaterThanOrEqual(60);
  });

  it('gives up with TRES_PARSE_TIMEOUT once the time budget is spent', async () => {
    const html = 'x'.repeat(10_000);
    // Every slice appears to take 500 ms: over the default 2,000 ms after the fifth of ten.
    const error = await parseHtmlBounded(html, PAGE, { sliceChars: 1_000, clock: steppingClock(500) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SkipUrlError);
    expect(error).toMatchObject({
      code: PARSE_TIMEOUT_CODE,
      context: { url: PAGE, parsedChars: 5_000, totalChars: 10_000 },
    });
  });

  it('never gives up when the budget is off, and finishes a page whose last slice ran over', async () => {
    const html = 'x'.repeat(10_000);
    const clock = steppingClock(500);
    const off = await parseHtmlBounded(html, PAGE, { sliceChars: 1_000, clock, timeBudgetMs: false });
    expect(off.text).toHaveLength(10_000);
    // Two slices of 500 ms: over a 700 ms budget only once the whole page is parsed.
    const last = await parseHtmlBounded(html, PAGE, { sliceChars: 5_000, clock, timeBudgetMs: 700 });
    expect(last.text).toHaveLength(10_000);
  });

  it('refuses a budget or slice size out of range', async () => {
    await expect(parseHtmlBounded('', PAGE, { timeBudgetMs: 0 })).rejects.toMatchObject({
      code: 'TRES_CONFIG',
    });
    await expect(parseHtmlBounded('', PAGE, { sliceChars: 0 })).rejects.toMatchObject({
      code: 'TRES_CONFIG',
    });
  });
});
