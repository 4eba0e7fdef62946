/**
 * Test support shared by the crawler's tests and the lab's benchmarks, never published: a
 * redis-server on a free port, a generated web that logs every request, small PDF files, and
 * the fast-check arbitraries of the property tests (HTML, URLs, robots.txt). It uses the crawler
 * only through its package entries (`tres-crawler`, `tres-crawler/internals`).
 */
export * from './html-arbitraries.js';
export * from './local-redis.js';
export * from './logged-web.js';
export * from './make-pdf.js';
export * from './robots-arbitraries.js';
export * from './url-arbitraries.js';
