/**
 * fast-check generators of robots.txt files and of the paths asked about, and a one-call way
 * to ask a fresh RobotsTxtCache about one URL under one file, for the property test of the
 * robots matcher and the fuzz benchmark (`npm run bench -- fuzz`). Test support: not exported
 * from `index.ts` (fast-check is a dev dependency).
 */
import fc from 'fast-check';
import type { FetchResult } from 'tres-crawler/internals';
import { type RobotsDecision, RobotsTxtCache } from 'tres-crawler/internals';

const FIELDS = [
  'User-agent',
  'user-agent',
  'USER-AGENT ',
  'Disallow',
  'disallow',
  'Allow',
  'Crawl-delay',
  'Sitemap',
  'Host',
  'Noindex',
  '',
];
const VALUES = [
  '*',
  'tres',
  'TRES/1.0',
  'tres-bot',
  'other',
  '/',
  '',
  '/private',
  '/*.html$',
  '/a*b*c*d',
  '*',
  '$',
  '/$',
  '/%2A',
  '/%E2%82%AC',
  '/€',
  '/ü*',
  '/a?b=*',
  '/%zz',
  '/%',
  '1',
  '0.5',
  '-3',
  '1e400',
  'NaN',
  '0x10',
  'http://example.com/sitemap.xml',
  'not a url',
  '__proto__',
  'constructor',
  'hasOwnProperty',
];
const SEPARATORS = [':', ': ', ' :', '::', ''];
const ENDS = ['\n', '\r\n', '\r', '\n\n', ' # comment\n', '#\n'];

/** One robots.txt line: mostly field: value, sometimes junk. */
const robotsLine: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...FIELDS),
        fc.constantFrom(...SEPARATORS),
        fc.oneof(fc.constantFrom(...VALUES), fc.string({ maxLength: 12 })),
        fc.constantFrom(...ENDS),
      )
      .map((parts) => parts.join('')),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 30, unit: 'binary' }) },
);

/** A robots.txt file: lines of rules and junk, or any text at all. */
export const robotsTxt: fc.Arbitrary<string> = fc.oneof(
  fc.array(robotsLine, { maxLength: 25 }).map((lines) => lines.join('')),
  fc.string({ maxLength: 300, unit: 'binary' }),
);

/** A path and query asked about: tricky pieces or any characters. */
export const robotsPath: fc.Arbitrary<string> = fc.oneof(
  fc
    .array(
      fc.constantFrom('/', 'a', 'b', '.html', '?', '=', '*', '$', '%2A', '%e2%82%ac', '€', 'ü', '%', ';'),
      {
        maxLength: 12,
      },
    )
    .map((parts) => `/${parts.join('')}`),
  fc.string({ maxLength: 40, unit: 'binary' }).map((s) => `/${s}`),
);

/** A 200 text/plain response carrying `text`, as the fetcher gives it. */
export function textResponse(url: string, text: string): FetchResult {
  const body = Buffer.from(text);
  return {
    url,
    status: 200,
    statusText: 'OK',
    headers: {},
    rawHeaders: [],
    contentType: 'text/plain',
    charset: 'utf-8',
    body,
    rawBody: body,
    text,
    location: undefined,
    isTruncated: false,
    remoteAddress: undefined,
    requestHeaders: {},
    httpVersion: '1.1',
    fetchedAt: 0,
    durationMs: 0,
    bytesOnWire: body.length,
  };
}

/**
 * What a fresh RobotsTxtCache (token `tres`) decides about `url` when the origin's robots.txt
 * is `robots`. `url` should be an absolute http(s) URL (others throw SkipUrlError by contract).
 */
export async function decideUnder(robots: string, url: string): Promise<RobotsDecision> {
  const cache = new RobotsTxtCache(async (robotsUrl) => textResponse(robotsUrl, robots));
  return cache.isAllowed(url);
}
