import fc from 'fast-check';
import robotsParserModule from 'robots-parser';
import { robotsPath, robotsTxt } from 'tres-testing';
import { describe, expect, it } from 'vitest';
import { compileRobotsPattern, decidingRule, groupFor, parseRobotsTxt } from './robots-rules.js';

// robots-parser 3.0.1 is the reference: its matcher is quadratic but its answers are right
// (Google's robots.cc algorithm). CommonJS with an ES default in its types, as robots-txt.ts had it.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

/** The reference glob: every prefix length the pattern may have matched (robots.cc). */
function referenceMatches(pattern: string, path: string): boolean {
  let lengths = [0];
  for (let p = 0; p < pattern.length; p++) {
    if (pattern[p] === '$' && p + 1 === pattern.length) return lengths.at(-1) === path.length;
    if (pattern[p] === '*') {
      const from = lengths[0] as number;
      lengths = Array.from({ length: path.length - from + 1 }, (_, i) => from + i);
    } else {
      lengths = lengths.filter((n) => n < path.length && path[n] === pattern[p]).map((n) => n + 1);
      if (lengths.length === 0) return false;
    }
  }
  return true;
}

const alphabet = fc.constantFrom('a', 'b', '/', '*', '$', 'ab');
const pattern = fc.array(alphabet, { maxLength: 10 }).map((parts) => parts.join(''));
const path = fc
  .array(fc.constantFrom('a', 'b', '/', '$', 'ab', 'ba'), { maxLength: 12 })
  .map((parts) => parts.join(''));

describe('the linear robots.txt matcher', () => {
  it('matches exactly the paths the reference matcher matches', () => {
    fc.assert(
      fc.property(pattern, path, (p, s) => {
        expect(compileRobotsPattern(p)(s)).toBe(referenceMatches(p, s));
      }),
      { seed: 27, numRuns: 20_000 },
    );
  });

  it('decides as robots-parser does (rule, precedence, Crawl-delay, sitemaps) on any file and URL', () => {
    fc.assert(
      fc.property(robotsTxt, robotsPath, fc.constantFrom('tres', 'other', 'TRES/2'), (robots, p, token) => {
        let url: URL;
        try {
          url = new URL(`http://example.com${p}`);
        } catch {
          return;
        }
        const reference = robotsParser('http://example.com/robots.txt', robots);
        const rules = parseRobotsTxt(robots);
        const group = groupFor(rules, token);
        const rule = decidingRule(group, url.pathname + url.search);
        expect(rule?.lineNumber ?? -1).toBe(reference.getMatchingLineNumber(url.href, token));
        expect(rule === undefined || rule.isAllow).toBe(reference.isAllowed(url.href, token));
        expect(group?.crawlDelaySeconds).toBe(reference.getCrawlDelay(token));
        expect(rules.sitemaps).toEqual(reference.getSitemaps());
      }),
      { seed: 27, numRuns: 5_000 },
    );
  });

  it('lets the longest pattern win, allow winning a tie, and anchors only a final $', () => {
    const rules = parseRobotsTxt(
      [
        'User-agent: *',
        'Disallow: /a',
        'Allow: /a/b',
        'Disallow: /a/b$',
        'Allow: /x$y',
        'Disallow: /*.pdf$',
        'Disallow: /t',
        'Allow: /t',
      ].join('\n'),
    );
    const decide = (p: string) => decidingRule(groupFor(rules, 'tres'), p)?.isAllow;
    expect(decide('/a/c')).toBe(false);
    expect(decide('/a/bc')).toBe(true);
    expect(decide('/a/b')).toBe(false); // "/a/b$" is one longer than "/a/b"
    expect(decide('/t')).toBe(true); // the same length: allow wins
    expect(decide('/x$y')).toBe(true);
    expect(decide('/doc.pdf')).toBe(false);
    expect(decide('/doc.pdf?x')).toBe(undefined);
  });
});
