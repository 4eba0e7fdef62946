/**
 * What `npm run bench -- fuzz` runs: for each target, generated inputs (the property tests'
 * fast-check arbitraries), a few directed hostile inputs, and the property checked beyond "does
 * not throw".
 */
import fc from 'fast-check';
import { createUrlFilter, normalizeUrl, parseHtml, parseMetaRefreshUrl } from 'tres-crawler/internals';
import { anyHtml, anyUrlInput, decideUnder, metaRefreshContent, robotsPath, robotsTxt } from 'tres-testing';

/** One fuzz target. */
export interface FuzzTarget<T> {
  name: string;
  /** What is called and what is checked, for the report. */
  description: string;
  inputs: fc.Arbitrary<T>;
  /** Hostile inputs run once each, labelled for the report (the slowest call may be one). */
  directed(): { label: string; input: T }[];
  /**
   * Runs one input. Returns the name of a property the result breaks (e.g. `not idempotent`),
   * undefined if none; a throw is counted as a throw.
   */
  run(input: T): string | undefined | Promise<string | undefined>;
  /** Size of an input in characters. */
  size(input: T): number;
  /** The input as text, for examples in the report. */
  show(input: T): string;
}

const urlFilter = createUrlFilter({
  allowedDomains: ['example.com', 'bücher.de'],
  includePatterns: ['^https?://'],
  excludePatterns: [/\/private\//],
});

function isNotIdempotent(input: string, options?: Parameters<typeof normalizeUrl>[1]): boolean {
  const once = normalizeUrl(input, options);
  return once !== undefined && normalizeUrl(once, options) !== once;
}

const normalizeTarget: FuzzTarget<string> = {
  name: 'normalizeUrl',
  description: 'normalizeUrl with default options and with shouldSortQuery; checks idempotence',
  inputs: anyUrlInput,
  directed: () => [
    { label: '8 KB of stray percent signs before escapes', input: `http://h/${'%%41%4%31'.repeat(900)}` },
    {
      label: '2,000 dot segments hidden by session ids',
      input: `http://h/${'a/..;jsessionid=1/'.repeat(2000)}`,
    },
    { label: '100,000 query parameters, sorted', input: `http://h/?${'b=1&a=2&sid=3&'.repeat(25_000)}` },
  ],
  run: (input) =>
    isNotIdempotent(input) || isNotIdempotent(input, { shouldSortQuery: true })
      ? 'not idempotent'
      : undefined,
  size: (input) => input.length,
  show: (input) => input,
};

const filterTarget: FuzzTarget<string> = {
  name: 'urlFilter',
  description: 'a URL filter with domains and patterns, on the raw input and on its normalised form',
  inputs: anyUrlInput,
  directed: () => [{ label: 'a 1 MB URL', input: `http://example.com/${'a.'.repeat(500_000)}pdf` }],
  run: (input) => {
    urlFilter(input);
    const normalized = normalizeUrl(input);
    if (normalized !== undefined) urlFilter(normalized);
    return undefined;
  },
  size: (input) => input.length,
  show: (input) => input,
};

const htmlTarget: FuzzTarget<{ html: string; withContext: boolean }> = {
  name: 'parseHtml',
  description: 'parseHtml with and without link context; checks every link is http(s)',
  inputs: fc.record({ html: anyHtml, withContext: fc.boolean() }),
  directed: () =>
    [
      ['1,000,000 nested divs', `${'<div>'.repeat(1_000_000)}x`],
      ['1,000,000 unclosed anchors', '<a href=x>'.repeat(1_000_000)],
      ['1,000,000 table-row-cell nestings', '<table><tr><td>'.repeat(1_000_000)],
      [
        '500,000 divs, then 500,000 stray closing tags',
        `${'<div>'.repeat(500_000)}${'</i>'.repeat(500_000)}`,
      ],
      ['a tag with 300,000 attributes', `<a ${'x="1" '.repeat(300_000)}href=/a>a</a>`],
      ['5 MB of one text node', `<p>${'word '.repeat(1_000_000)}`],
      ['100,000 comments', '<!-- c -->'.repeat(100_000)],
    ].map(([label, html]) => ({
      label: label as string,
      input: { html: html as string, withContext: true },
    })),
  run: ({ html, withContext }) => {
    const page = parseHtml(html, 'http://example.com/a/b.html', { withContext });
    return page.links.every((l) => l.url.startsWith('http:') || l.url.startsWith('https:'))
      ? undefined
      : 'non-http link';
  },
  size: (input) => input.html.length,
  show: (input) => input.html,
};

const metaRefreshTarget: FuzzTarget<string> = {
  name: 'parseMetaRefreshUrl',
  description: 'the target of a meta refresh content attribute; checks it is never empty',
  inputs: metaRefreshContent,
  directed: () => [{ label: '1 MB of spaces and semicolons', input: `0${' ;'.repeat(500_000)}url=x` }],
  run: (input) => (parseMetaRefreshUrl(input) === '' ? 'empty target' : undefined),
  size: (input) => input.length,
  show: (input) => input,
};

const robotsTarget: FuzzTarget<{ robots: string; path: string }> = {
  name: 'robotsMatcher',
  description: 'RobotsTxtCache.isAllowed under a generated robots.txt; checks it decides (a boolean)',
  inputs: fc.record({ robots: robotsTxt, path: robotsPath }),
  directed: () => [
    {
      label: '120 rules of 2,000 wildcards (480 KB), a 2,000-character path',
      input: {
        robots: `User-agent: *\n${`Disallow: /${'*a'.repeat(2000)}b\n`.repeat(120)}`,
        path: `/${'a'.repeat(2000)}`,
      },
    },
  ],
  run: async ({ robots, path }) => {
    // As the crawler asks (normalised URLs), and with the raw spelling.
    const raw = `http://example.com${path}`;
    for (const url of new Set([raw, normalizeUrl(raw) ?? raw])) {
      const decision = await decideUnder(robots, url);
      if (typeof decision.isAllowed !== 'boolean') return 'no decision';
    }
    return undefined;
  },
  size: (input) => input.robots.length + input.path.length,
  show: (input) => `${input.robots}\n--- asked about: ${input.path}`,
};

/** Every target, in report order. */
export const FUZZ_TARGETS: readonly FuzzTarget<never>[] = [
  normalizeTarget,
  filterTarget,
  htmlTarget,
  metaRefreshTarget,
  robotsTarget,
] as unknown as FuzzTarget<never>[];
