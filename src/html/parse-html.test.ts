import { describe, expect, it } from 'vitest';
import { ConfigError } from '../common/index.js';
import { parseHtml } from './parse-html.js';

const PAGE = 'http://example.com/dir/page.html';

function urls(html: string, pageUrl = PAGE): string[] {
  return parseHtml(html, pageUrl).links.map((link) => link.url);
}

describe('parseHtml: title and text', () => {
  it('reads the title with entities decoded and whitespace collapsed', () => {
    const page = parseHtml('<head><title>\n  Fish &amp;\tChips  </title></head>', PAGE);
    expect(page.title).toBe('Fish & Chips');
  });

  it('keeps the first title only and ignores an SVG title', () => {
    const html = '<svg><title>icon</title></svg><title>Real</title><title>Second</title>';
    expect(parseHtml(html, PAGE).title).toBe('Real');
  });

  it('gives an empty title when there is none', () => {
    expect(parseHtml('<p>x</p>', PAGE).title).toBe('');
  });

  it('does not put the title into the text', () => {
    expect(parseHtml('<title>T</title><p>Body</p>', PAGE).text).toBe('Body');
  });

  it('separates words at block elements but not at inline ones', () => {
    const html =
      '<div>one</div><div>two</div><p>thr<b>ee</b> <i>four</i><br>five</p><ul><li>six<li>seven</ul>';
    expect(parseHtml(html, PAGE).text).toBe('one two three four five six seven');
  });

  it('collapses whitespace, including non-breaking spaces', () => {
    expect(parseHtml('<p>  a \n\n b&nbsp;&nbsp;c\t</p>', PAGE).text).toBe('a b c');
  });

  it('skips script, style, template, noscript and iframe text', () => {
    const html =
      '<p>keep1</p><script>var no1 = "<p>x</p>";</script><style>.no2{}</style>' +
      '<template><p>no3</p></template><noscript>no4</noscript><iframe>no5</iframe><p>keep2</p>';
    expect(parseHtml(html, PAGE).text).toBe('keep1 keep2');
  });

  it('caps the text at maxTextChars', () => {
    const page = parseHtml('<p>abcdef</p><p>ghij</p>', PAGE, { maxTextChars: 8 });
    expect(page.text).toBe('abcdef g');
  });

  it('reads the html lang attribute lowercased', () => {
    expect(parseHtml('<html lang=" en-GB "><p>x', PAGE).lang).toBe('en-gb');
    expect(parseHtml('<p>x', PAGE).lang).toBeUndefined();
  });
});

describe('parseHtml: links', () => {
  it('resolves relative links against the page URL', () => {
    const html =
      '<a href="a.html">1</a><a href="../up">2</a><a href="/root?q=1">3</a><a href="//cdn.org/x">4</a>';
    expect(urls(html)).toEqual([
      'http://example.com/dir/a.html',
      'http://example.com/up',
      'http://example.com/root?q=1',
      'http://cdn.org/x',
    ]);
  });

  it('resolves against the first base href, itself resolved against the page URL', () => {
    const html = '<head><base href="/other/"><base href="http://wrong.org/"></head><a href="x.html">x</a>';
    const page = parseHtml(html, PAGE);
    expect(page.baseUrl).toBe('http://example.com/other/');
    expect(page.links.map((link) => link.url)).toEqual(['http://example.com/other/x.html']);
  });

  it('applies a base href that comes after a link, as browsers do', () => {
    expect(urls('<a href="x">x</a><base href="http://b.org/p/">')).toEqual(['http://b.org/p/x']);
  });

  it('ignores a base without href and a javascript: base', () => {
    expect(parseHtml('<base target="_top"><a href="x">x</a>', PAGE).baseUrl).toBe(PAGE);
    expect(urls('<base href="javascript:void(0)"><a href="x">x</a>')).toEqual(['http://example.com/dir/x']);
  });

  it('skips empty, fragment-only, javascript:, mailto:, tel: and data: hrefs', () => {
    const html =
      '<a href="">e</a><a href="  ">s</a><a href="#top">f</a><a href="JavaScript:go()">j</a>' +
      '<a href="mailto:a@b.c">m</a><a href="tel:123">t</a><a href="data:text/html,x">d</a>' +
      '<a href="ftp://f.org/x">ftp</a><a>no href</a><a href="ok#frag">ok</a>';
    expect(urls(html)).toEqual(['http://example.com/dir/ok#frag']);
  });

  it('reads anchor text with nested markup and image alt text', () => {
    const html = '<a href="/a"> The <b>bold</b>\n <img src="i.png" alt="picture"> link </a>';
    expect(parseHtml(html, PAGE).links[0]?.anchorText).toBe('The bold picture link');
  });

  it('marks rel=nofollow among other rel tokens, in any case', () => {
    const html = '<a href="/a" rel="NoFollow noopener">a</a><a href="/b" rel="ugc">b</a><a href="/c">c</a>';
    expect(parseHtml(html, PAGE).links.map((link) => link.isNofollow)).toEqual([true, false, false]);
  });

  it('reads area links with their alt text as anchor text', () => {
    const html = '<map><area shape="rect" href="/region" alt="North"><area nohref alt="none"></map>';
    const links = parseHtml(html, PAGE).links;
    expect(links.map((link) => [link.url, link.anchorText])).toEqual([
      ['http://example.com/region', 'North'],
    ]);
  });

  it('keeps duplicate links in document order', () => {
    expect(urls('<a href="/x">1</a><a href="/y">2</a><a href="/x">3</a>')).toEqual([
      'http://example.com/x',
      'http://example.com/y',
      'http://example.com/x',
    ]);
  });

  it('drops links inside template but keeps links inside noscript with their text', () => {
    const html = '<template><a href="/t">t</a></template><noscript><a href="/n">No JS</a></noscript>';
    const links = parseHtml(html, PAGE).links;
    expect(links.map((link) => [link.url, link.anchorText])).toEqual([['http://example.com/n', 'No JS']]);
  });

  it('stops at maxLinks', () => {
    expect(
      parseHtml('<a href="/1">1</a><a href="/2">2</a><a href="/3">3</a>', PAGE, { maxLinks: 2 }).links,
    ).toHaveLength(2);
  });

  it('gives no context unless asked', () => {
    expect(parseHtml('<a href="/1">1</a>', PAGE).links[0]?.context).toBeUndefined();
  });
});

describe('parseHtml: meta directives', () => {
  it.each([
    ['noindex', '<meta name="robots" content="noindex">', { isNoindex: true, isNofollow: false }],
    ['nofollow', '<meta name="ROBOTS" content="index, NOFOLLOW">', { isNoindex: false, isNofollow: true }],
    ['none', '<meta name="robots" content="none">', { isNoindex: true, isNofollow: true }],
    [
      'two tags',
      '<meta name=robots content=noindex><meta name=robots content=nofollow>',
      { isNoindex: true, isNofollow: true },
    ],
    ['another bot', '<meta name="otherbot" content="noindex">', { isNoindex: false, isNofollow: false }],
    ['nothing', '<p>x</p>', { isNoindex: false, isNofollow: false }],
  ])('reads meta robots: %s', (_name, html, expected) => {
    expect(parseHtml(html, PAGE).metaRobots).toEqual(expected);
  });

  it.each([
    ['quoted url=', `<meta http-equiv="refresh" content="0; url='/next'">`, 'http://example.com/next'],
    [
      'unquoted URL= in capitals',
      '<meta http-equiv="Refresh" content="5;URL=next.html">',
      'http://example.com/dir/next.html',
    ],
    ['comma and spaces', '<meta http-equiv=refresh content="3 , url = http://b.org/">', 'http://b.org/'],
    [
      'no url= keyword',
      '<meta http-equiv="refresh" content="0; other.html">',
      'http://example.com/dir/other.html',
    ],
  ])('resolves meta refresh: %s', (_name, html, expected) => {
    expect(parseHtml(html, PAGE).metaRefreshUrl).toBe(expected);
  });

  it('has no refresh target for a plain reload', () => {
    expect(parseHtml('<meta http-equiv="refresh" content="30">', PAGE).metaRefreshUrl).toBeUndefined();
  });

  it('resolves the canonical link against the base', () => {
    const html = '<base href="/b/"><link rel="alternate" href="/alt"><link rel="Canonical" href="c.html">';
    expect(parseHtml(html, PAGE).canonicalUrl).toBe('http://example.com/b/c.html');
  });
});

describe('parseHtml: options', () => {
  it.each([
    [{ contextDMax: 200 }, 'contextDMax'],
    [{ contextDMax: 1.5 }, 'contextDMax'],
    [{ contextWords: 0 }, 'contextWords'],
    [{ maxTextChars: -1 }, 'maxTextChars'],
    [{ maxLinks: Number.NaN }, 'maxLinks'],
  ])('throws a ConfigError naming the field for %o', (options, field) => {
    expect(() => parseHtml('<p>x</p>', PAGE, options)).toThrow(ConfigError);
    expect(() => parseHtml('<p>x</p>', PAGE, options)).toThrow(field);
  });

  it('turns caps off with false', () => {
    const html = `<p>${'word '.repeat(100)}</p>`;
    expect(parseHtml(html, PAGE, { maxTextChars: false, maxLinks: false }).text).toHaveLength(499);
  });
});
