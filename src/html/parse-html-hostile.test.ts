import { describe, expect, it } from 'vitest';
import type { Clock } from '../common/clock.js';
import { SkipUrlError } from '../common/errors.js';
import { createRng } from '../common/rng.js';
import { generatePage } from './parse-html.bench.js';
import { parseHtml } from './parse-html.js';
import { PARSE_TIMEOUT_CODE, parseHtmlBounded } from './parse-html-bounded.js';

const PAGE = 'http://example.com/';

/** Parses `html` and returns the time taken in ms (quadratic parsing took 68 s for 200k divs). */
function timedParse(html: string): { ms: number; page: ReturnType<typeof parseHtml> } {
  const start = performance.now();
  const page = parseHtml(html, PAGE);
  return { ms: performance.now() - start, page };
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

// Each shape took seconds to minutes with htmlparser2's Parser (open-tag stack kept with
// unshift); linear parsing does each in well under a second. The bound leaves room for a
// loaded machine.
const FAST_MS = 5_000;

describe('parseHtml on pathological markup', () => {
  it('parses 200,000 nested divs fast', () => {
    const { ms, page } = timedParse(`${'<div>'.repeat(200_000)}deep <a href="/in">in</a>`);
    expect(ms).toBeLessThan(FAST_MS);
    expect(page.text).toBe('deep in');
    expect(page.links.map((l) => l.url)).toEqual(['http://example.com/in']);
  });

  it('parses 1,000,000 nested divs (5 MB) fast', () => {
    const { ms, page } = timedParse(`<title>t</title>${'<div>'.repeat(1_000_000)}x${'</div>'.repeat(10)}`);
    expect(ms).toBeLessThan(FAST_MS);
    expect([page.title, page.text]).toEqual(['t', 'x']);
  });

  it('parses 1,000,000 unclosed anchors fast, keeping maxLinks of them', () => {
    const { ms, page } = timedParse('<a href=x>'.repeat(1_000_000));
    expect(ms).toBeLessThan(FAST_MS);
    expect(page.links).toHaveLength(10_000);
  });

  it('parses 1,000,000 nested table-row-cell triples fast', () => {
    const { ms, page } = timedParse(`${'<table><tr><td>'.repeat(1_000_000)}cell`);
    expect(ms).toBeLessThan(FAST_MS);
    expect(page.text).toBe('cell');
  });

  it('parses half a million stray closing tags under a deep stack fast', () => {
    const { ms, page } = timedParse(`${'<div>'.repeat(500_000)}${'</span>'.repeat(500_000)}end`);
    expect(ms).toBeLessThan(FAST_MS);
    expect(page.text).toBe('end');
  });

  it('parses a tag with 300,000 attributes and a million nested svg elements fast', () => {
    const attributes = Array.from({ length: 300_000 }, (_, i) => `data-${i}="${i}"`).join(' ');
    const a = timedParse(`<a ${attributes} href="/x" rel=nofollow>link</a>`);
    expect(a.ms).toBeLessThan(FAST_MS);
    expect(a.page.links).toEqual([{ url: 'http://example.com/x', anchorText: 'link', isNofollow: true }]);
    const svg = timedParse(`${'<svg>'.repeat(1_000_000)}<a href=/s />`);
    expect(svg.ms).toBeLessThan(FAST_MS);
    expect(svg.page.links).toHaveLength(1);
  });

  it('parses 5 MB of one text node and a million entities fast, capping the text', () => {
    const text = timedParse(`<p>${'word '.repeat(1_000_000)}</p>`);
    expect(text.ms).toBeLessThan(FAST_MS);
    expect(text.page.text.length).toBe(199_999); // 200,000 cut at a space, then trimmed
    const entities = timedParse(`<p>${'&amp;'.repeat(1_000_000)}</p>`);
    expect(entities.ms).toBeLessThan(FAST_MS);
    expect(entities.page.text.length).toBe(200_000);
  });

  it('parses 100,000 comments fast', () => {
    const { ms, page } = timedParse(`${'<!-- c --><p>'.repeat(100_000)}after`);
    expect(ms).toBeLessThan(FAST_MS);
    expect(page.text).toBe('after');
  });
});

describe('parseHtmlBounded', () => {
  it('gives the same page as parseHtml, whatever the slice size', async () => {
    const html = generatePage(createRng('bounded'), 30_000);
    const whole = parseHtml(html, PAGE, { withContext: true });
    for (const sliceChars of [97, 65_536]) {
      expect(await parseHtmlBounded(html, PAGE, { withContext: true, sliceChars })).toEqual(whole);
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
