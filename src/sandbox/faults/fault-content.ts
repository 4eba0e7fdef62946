/**
 * Fault sites whose bytes are the problem: charsets, broken HTML, robots.txt rules, binary
 * content. See the table in `fault-sites.ts`.
 */

import type { HandlerSite } from '../replay/index.js';
import { sendBody, sendHtml, sendStatus } from '../replay/index.js';
import { CHARSET_PAGES } from './charset-pages.js';
import { faultSite, okPageHtml } from './fault-page.js';

/** `charset.fault.test`: the pages of {@link CHARSET_PAGES}. */
export function charsetSite(): HandlerSite {
  const host = 'charset.fault.test';
  const byPath = new Map(CHARSET_PAGES.map((p) => [p.path.slice(1), p]));
  return faultSite({
    host,
    description: 'Known text in legacy encodings.',
    links: CHARSET_PAGES.map((p) => [p.path, `${p.encoding} declared in ${p.declaredIn}`] as const),
    handle: (req, res, rel) => {
      const page = byPath.get(rel);
      if (!page) return sendStatus(req, res, 404);
      sendBody(res, 200, page.contentType, page.body);
    },
  });
}

/** One page of `broken-html.fault.test` and the links a forgiving parser should find in it. */
export interface BrokenHtmlPage {
  path: string;
  /** Raw markup (may hold NUL bytes). */
  html: string;
  /** Hrefs as written, in document order, that a browser-like parser extracts. */
  expectedHrefs: readonly string[];
}

/** The pages of `broken-html.fault.test`. Every `/t/N.html` they link to exists. */
export const BROKEN_HTML_PAGES: readonly BrokenHtmlPage[] = [
  {
    path: '/unclosed.html',
    html:
      '<html><head><title>Unclosed tags</title><body><div><p>First paragraph <b>bold <i>italic ' +
      '<a href="/t/1.html">one</a> <p>Second <ul><li>item <a href="/t/2.html">two</a><li>next <table><tr><td>cell',
    expectedHrefs: ['/t/1.html', '/t/2.html'],
  },
  {
    path: '/stray-close.html',
    html:
      '<!DOCTYPE html><html><head><title>Stray closing tags</title></head><body></div></p></span> text ' +
      '<a href="/t/3.html">three</a></b></a></td></body></html> after the end <a href="/t/4.html">four</a>',
    expectedHrefs: ['/t/3.html', '/t/4.html'],
  },
  {
    path: '/nested-anchors.html',
    html:
      '<!DOCTYPE html><html><head><title>Nested anchors</title></head><body><p>' +
      '<a href="/t/5.html">outer <a href="/t/6.html">inner</a> tail</a></p></body></html>',
    expectedHrefs: ['/t/5.html', '/t/6.html'],
  },
  {
    path: '/nul-bytes.html',
    html:
      '<!DOCTYPE html><html><head><title>NUL\u0000 bytes</title></head><body><p>te\u0000xt ' +
      '<a href="/t/7.html">se\u0000ven</a> \u0000 <a href="/t/8.html" \u0000>eight</a></p></body></html>',
    expectedHrefs: ['/t/7.html', '/t/8.html'],
  },
  {
    path: '/unquoted-attrs.html',
    html:
      '<!DOCTYPE html><html><head><title>Attributes without quotes</title></head><body>' +
      '<a href=/t/9.html class=x>nine</a> <a href=/t/10.html?a=1&b=2>ten</a> ' +
      '<a href=\'/t/11.html\'>eleven</a> <A HREF = "/t/12.html">twelve</A></body></html>',
    expectedHrefs: ['/t/9.html', '/t/10.html?a=1&b=2', '/t/11.html', '/t/12.html'],
  },
];

/** `broken-html.fault.test`: the pages of {@link BROKEN_HTML_PAGES} and their link targets. */
export function brokenHtmlSite(): HandlerSite {
  const host = 'broken-html.fault.test';
  const byPath = new Map(BROKEN_HTML_PAGES.map((p) => [p.path.slice(1), p]));
  return faultSite({
    host,
    description: 'Malformed HTML that browsers still read.',
    links: BROKEN_HTML_PAGES.map((p) => [p.path, p.path.slice(1, -5)] as const),
    handle: (req, res, rel) => {
      const page = byPath.get(rel);
      if (page) return sendBody(res, 200, 'text/html; charset=utf-8', page.html);
      if (/^t\/\d+\.html$/.test(rel))
        return sendHtml(res, 200, okPageHtml(host, `/${rel}`, `Target ${rel}.`));
      sendStatus(req, res, 404);
    },
  });
}

/** Marker text of pages a crawler must not fetch: finding it in a crawl means robots.txt was ignored. */
export const ROBOTS_VIOLATION_MARKER = 'ROBOTS-VIOLATION';

/** robots.txt of `robots.fault.test`. */
export const FAULT_ROBOTS_TXT = 'User-agent: *\nDisallow: /private/\nCrawl-delay: 1\n';

/** `robots.fault.test`: `Disallow: /private/`, `Crawl-delay: 1`; public pages link into /private/. */
export function robotsSite(): HandlerSite {
  const host = 'robots.fault.test';
  const publicPage = (name: string) =>
    okPageHtml(host, `/public/${name}`, 'A public page.').replace(
      '</body>',
      '<p><a href="/private/secret.html">secret</a> <a href="/private/deep/x.html">x</a> ' +
        '<a href="/public/a.html">a</a> <a href="/public/b.html">b</a></p></body>',
    );
  return faultSite({
    host,
    robotsTxt: FAULT_ROBOTS_TXT,
    description: 'robots.txt disallows /private/ and asks for Crawl-delay: 1.',
    links: [
      ['/public/a.html', 'public a'],
      ['/public/b.html', 'public b'],
      ['/private/secret.html', 'private (disallowed)'],
    ],
    handle: (req, res, rel) => {
      if (rel.startsWith('private/')) {
        return sendHtml(
          res,
          200,
          okPageHtml(host, `/${rel}`, `${ROBOTS_VIOLATION_MARKER}: robots.txt disallows this.`),
        );
      }
      if (rel === 'public/a.html' || rel === 'public/b.html')
        return sendHtml(res, 200, publicPage(rel.slice(7)));
      sendStatus(req, res, 404);
    },
  });
}

/** A valid 1x1 PNG. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** A minimal one-page PDF. */
export const TINY_PDF = Buffer.from(
  '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n' +
    '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n' +
    '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj\n' +
    'trailer << /Root 1 0 R >>\n%%EOF\n',
  'latin1',
);

/** `binary.fault.test`: a PNG, a PDF, and PNG bytes mislabelled as text/html. */
export function binarySite(): HandlerSite {
  const host = 'binary.fault.test';
  return faultSite({
    host,
    description: 'Binary content behind ordinary links.',
    links: [
      ['/image.png', 'an image/png'],
      ['/paper.pdf', 'an application/pdf'],
      ['/mislabelled.html', 'PNG bytes sent as text/html'],
    ],
    handle: (req, res, rel) => {
      if (rel === 'image.png') return sendBody(res, 200, 'image/png', TINY_PNG);
      if (rel === 'paper.pdf') return sendBody(res, 200, 'application/pdf', TINY_PDF);
      if (rel === 'mislabelled.html') return sendBody(res, 200, 'text/html', TINY_PNG);
      sendStatus(req, res, 404);
    },
  });
}
