import { decideUnder } from 'tres-testing';
import { describe, expect, it } from 'vitest';

/**
 * A hostile robots.txt: 120 rules of 2,000 `*` each (481 KB). A matcher that
 * tries every split of the path for every `*` spends seconds per check on a 2,000-character path
 * (1.2-2.6 s with robots-parser 3.0.1), holding the whole crawl; a linear one answers in well
 * under a millisecond. The budget below is a hundred times what the linear matcher needs, so it
 * fails only on a matcher that is not linear.
 */
function hostileRobotsTxt(): string {
  const lines = ['User-agent: *'];
  for (let i = 0; i < 120; i++) lines.push(`Disallow: /${'a*'.repeat(2_000)}x${i}`);
  return lines.join('\n');
}

describe('a robots.txt of patterns made of thousands of wildcards', () => {
  it('decides 20 URLs of 2,000-character paths without stalling, and still matches the rules', async () => {
    const robots = hostileRobotsTxt();
    expect(robots.length).toBeGreaterThan(480_000);
    const started = performance.now();
    for (let i = 0; i < 20; i++) {
      const path = `/${'a'.repeat(2_000)}${i % 2 === 0 ? 'y' : `x${i}`}`;
      const decision = await decideUnder(robots, `http://example.com${path}`);
      // Even paths end in "y" (no rule ends so): allowed; odd ones end in "x<i>" with i < 120.
      expect(decision.isAllowed).toBe(i % 2 === 0);
    }
    expect(performance.now() - started).toBeLessThan(5_000);
  }, 60_000);
});
