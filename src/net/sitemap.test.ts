import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseSitemap } from './sitemap.js';

const limits = { maxDecompressedBytes: 1 << 20, maxUrls: 100 };
const URLSET = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc> https://a.test/one.html </loc><lastmod>2024-01-01</lastmod></url>
  <url><loc>https://a.test/two?x=1&amp;y=2</loc></url>
</urlset>`;

describe('parseSitemap', () => {
  it('lists the <loc> of a urlset, trimmed, with XML entities decoded', () => {
    expect(parseSitemap(Buffer.from(URLSET), 'https://a.test/s.xml', limits)).toEqual({
      kind: 'urlset',
      urls: ['https://a.test/one.html', 'https://a.test/two?x=1&y=2'],
      isCut: false,
    });
  });

  it('tells a sitemap index by its root, prefixed names included', () => {
    const xml =
      '<sm:sitemapindex xmlns:sm="x"><sm:sitemap><sm:loc>https://a.test/s1.xml.gz</sm:loc></sm:sitemap></sm:sitemapindex>';
    const parsed = parseSitemap(Buffer.from(xml), 'https://a.test/i.xml', limits);
    expect(parsed.kind).toBe('index');
    expect(parsed.urls).toEqual(['https://a.test/s1.xml.gz']);
  });

  it('gunzips a gzip file, and refuses one that gunzips past the cap', () => {
    const gz = gzipSync(URLSET);
    expect(parseSitemap(gz, 'u', limits).urls).toHaveLength(2);
    const bomb = gzipSync(Buffer.alloc(2 << 20, 0x20));
    expect(() => parseSitemap(bomb, 'u', limits)).toThrow(
      expect.objectContaining({ code: 'TRES_DECOMPRESSION_BOMB' }),
    );
  });

  it('keeps at most maxUrls entries and says the list was cut', () => {
    const xml = `<urlset>${Array.from({ length: 10 }, (_, i) => `<url><loc>https://a.test/${i}</loc></url>`).join('')}</urlset>`;
    const parsed = parseSitemap(Buffer.from(xml), 'u', { ...limits, maxUrls: 3 });
    expect(parsed).toEqual({
      kind: 'urlset',
      urls: ['https://a.test/0', 'https://a.test/1', 'https://a.test/2'],
      isCut: true,
    });
  });

  it('reads a plain-text sitemap, one URL per line, other lines ignored', () => {
    const parsed = parseSitemap(Buffer.from('https://a.test/a\n# no\n\nhttp://a.test/b\r\n'), 'u', limits);
    expect(parsed).toEqual({ kind: 'text', urls: ['https://a.test/a', 'http://a.test/b'], isCut: false });
  });

  it('expands no custom entity (no XML bomb, no external entity)', () => {
    const xml = `<?xml version="1.0"?><!DOCTYPE u [<!ENTITY a "aaaaaaaaaa"><!ENTITY x SYSTEM "file:///etc/passwd">]>
<urlset><url><loc>https://a.test/&a;&x;</loc></url></urlset>`;
    expect(parseSitemap(Buffer.from(xml), 'u', limits).urls).toEqual(['https://a.test/&a;&x;']);
  });
});
