import fc from 'fast-check';
import { decideUnder, robotsPath, robotsTxt } from 'tres-testing';
import { describe, expect, it } from 'vitest';
import { normalizeUrl } from '../url/index.js';

describe('the robots.txt matcher', () => {
  it('never throws and always decides, whatever the file and the URL asked about', async () => {
    await fc.assert(
      fc.asyncProperty(robotsTxt, robotsPath, async (robots, path) => {
        // The crawler asks about normalised URLs; ask about the raw spelling too.
        for (const url of new Set([`http://example.com${path}`, normalizeUrl(`http://example.com${path}`)])) {
          if (url === undefined) continue;
          const decision = await decideUnder(robots, url);
          expect(typeof decision.isAllowed).toBe('boolean');
          expect(decision.isUnavailable).toBe(false);
          if (decision.crawlDelayMs !== undefined) expect(decision.crawlDelayMs).toBeGreaterThan(0);
        }
      }),
      { seed: 10, numRuns: 2_000 },
    );
  });
});
