import { describe, expect, it } from 'vitest';
import { parseHtml } from './parse-html.js';

const PAGE = 'http://example.com/';

function anchors(html: string): [string, string][] {
  return parseHtml(html, PAGE).links.map((link) => [link.url, link.anchorText]);
}

describe('parseHtml on broken HTML', () => {
  it('ends an unclosed anchor at the end of its parent block', () => {
    expect(anchors('<p><a href="/a">one</p><p>two</p>')).toEqual([['http://example.com/a', 'one']]);
  });

  it('ends an anchor left open at the end of the document', () => {
    const page = parseHtml('<a href="/a">to the end', PAGE, { withContext: true });
    expect(page.links.map((link) => link.anchorText)).toEqual(['to the end']);
    expect(Array.from(page.links[0]?.context?.offsets ?? [])).toEqual([0, 0, 0]);
  });

  it('caps the anchor text of an anchor that swallows the page', () => {
    const page = parseHtml(`<a href="/a">${'long text '.repeat(1000)}`, PAGE);
    // Cut at 1,000 characters, which end with a space that the final trim removes.
    expect(page.links[0]?.anchorText.length).toBe(999);
    expect(page.text.length).toBe(9999);
  });

  it('ignores a stray closing tag', () => {
    expect(anchors('</a></div><a href="/a">x</a></a></p>')).toEqual([['http://example.com/a', 'x']]);
  });

  it('splits nested anchors as browsers do', () => {
    expect(anchors('<a href="/1">one <a href="/2">two</a> after</a>')).toEqual([
      ['http://example.com/1', 'one'],
      ['http://example.com/2', 'two'],
    ]);
  });

  it('ends a link at a nested anchor without href', () => {
    expect(anchors('<a href="/1">one <a name="x">name</a> after</a>')).toEqual([
      ['http://example.com/1', 'one'],
    ]);
  });

  it('survives an unclosed title (swallowing the rest, as browsers do) with a capped title', () => {
    const page = parseHtml(`<title>T ${'x'.repeat(5000)}<a href="/a">a</a>`, PAGE);
    expect(page.title.length).toBe(1000);
    expect(page.links).toEqual([]);
  });

  it('survives an unclosed script', () => {
    const page = parseHtml('<p>before</p><script>var a = "<a href=/x>"', PAGE);
    expect(page.text).toBe('before');
    expect(page.links).toEqual([]);
  });

  it('survives unclosed tags and attributes', () => {
    const page = parseHtml('<div><p>text<b>bold<a href="/a" title="open', PAGE);
    expect(page.text).toBe('textbold');
  });

  it('drops NUL bytes from text and keeps links around them', () => {
    const page = parseHtml('<p>a\u0000b</p><a href="/x\u0000y">l\u0000ink</a>', PAGE);
    expect(page.text).toBe('ab link');
    expect(page.links.map((link) => link.anchorText)).toEqual(['link']);
    expect(page.links[0]?.url).toBe('http://example.com/x%00y');
  });

  it('drops a huge href and keeps a huge attribute elsewhere harmless', () => {
    const huge = 'a'.repeat(1_000_000);
    const page = parseHtml(`<a href="/${huge}">big</a><a href="/ok" title="${huge}">ok</a>`, PAGE);
    expect(page.links.map((link) => link.url)).toEqual(['http://example.com/ok']);
  });

  it('skips hrefs that do not resolve', () => {
    expect(
      anchors('<a href="http://exa mple.com/">bad</a><a href="http://[::1/">bad</a><a href="/ok">ok</a>'),
    ).toEqual([['http://example.com/ok', 'ok']]);
  });

  it('resolves absolute links even when the page URL is not a URL', () => {
    const page = parseHtml('<a href="rel">r</a><a href="https://b.org/">b</a>', 'not a url');
    expect(page.links.map((link) => link.url)).toEqual(['https://b.org/']);
    expect(page.baseUrl).toBe('not a url');
  });

  it('never throws on random markup soup', () => {
    const pieces = [
      '<a href="/x">',
      '</a>',
      '<p>',
      '</div>',
      '<b',
      '>',
      '"',
      "'",
      '<!--',
      '-->',
      '<![CDATA[',
      'text',
      '&amp',
      '&#0;',
      '\u0000',
      '<script>',
      '</script>',
      '<title>',
      '<area href=/y>',
      '<base href=::>',
      '<meta http-equiv=refresh content="0;url=">',
    ];
    let seed = 1;
    for (let doc = 0; doc < 200; doc++) {
      let html = '';
      for (let i = 0; i < 60; i++) {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        html += pieces[seed % pieces.length];
      }
      expect(() => parseHtml(html, PAGE, { withContext: true })).not.toThrow();
    }
  });

  it('ignores empty input', () => {
    const page = parseHtml('', PAGE, { withContext: true });
    expect(page).toEqual({
      title: '',
      text: '',
      links: [],
      baseUrl: PAGE,
      metaRobots: { isNoindex: false, isNofollow: false },
      isTextTruncated: false,
      isLinksTruncated: false,
    });
  });
});
