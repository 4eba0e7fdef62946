import fc from 'fast-check';
import { anyHtml, htmlDocument, metaRefreshContent } from 'tres-testing';
import { describe, expect, it } from 'vitest';
import { parseMetaRefreshUrl } from './meta-refresh.js';
import { parseHtml } from './parse-html.js';
import { parseHtmlBounded } from './parse-html-bounded.js';
import { withPlainLinks } from './test-helpers.js';

// Fixed seeds and bounded runs: each property takes well under a second.
const RUNS = { seed: 10, numRuns: 1_000 };
const PAGE_URLS = ['http://example.com/a/b.html', 'https://bücher.de/', 'not a url', '', 'http://[::1]/x'];

describe('never throws on arbitrary input', () => {
  it('parseHtml, with and without link context, whatever the page URL', () => {
    fc.assert(
      fc.property(anyHtml, fc.constantFrom(...PAGE_URLS), fc.boolean(), (html, pageUrl, withContext) => {
        const page = parseHtml(html, pageUrl, { withContext });
        for (const link of page.links) expect(link.url).toMatch(/^https?:/);
      }),
      RUNS,
    );
  });

  it('parseHtml on markup wrapped in a meta refresh, base and canonical', () => {
    fc.assert(
      fc.property(metaRefreshContent, fc.string({ maxLength: 20 }), (content, href) => {
        const quoted = (s: string) => s.replaceAll('"', '&quot;');
        parseHtml(
          `<base href="${quoted(href)}"><meta http-equiv=refresh content="${quoted(content)}">` +
            `<link rel=canonical href="${quoted(href)}"><a href="${quoted(href)}">x</a>`,
          'http://example.com/',
        );
      }),
      RUNS,
    );
  });

  it('parseMetaRefreshUrl', () => {
    fc.assert(
      fc.property(metaRefreshContent, (content) => {
        const url = parseMetaRefreshUrl(content);
        if (url !== undefined) expect(url).not.toBe('');
      }),
      { ...RUNS, numRuns: 5_000 },
    );
  });
});

describe('parseHtmlBounded', () => {
  it('gives the page parseHtml gives, for random markup and slice sizes', async () => {
    await fc.assert(
      fc.asyncProperty(htmlDocument(80), fc.integer({ min: 1, max: 64 }), async (html, sliceChars) => {
        const whole = withPlainLinks(parseHtml(html, 'http://example.com/', { withContext: true }));
        expect(
          withPlainLinks(
            await parseHtmlBounded(html, 'http://example.com/', { withContext: true, sliceChars }),
          ),
        ).toEqual(whole);
      }),
      { seed: 10, numRuns: 300 },
    );
  });
});
