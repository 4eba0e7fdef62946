import { describe, expect, it } from 'vitest';
import { bestRunPerSeed, oracleReachMarkdown, type TopicReach } from './oracle-reach.js';

const reach = (domainLimit: string, domains: number[]): TopicReach => ({
  topic: 'hardware',
  domainLimit,
  seeds: domains.length,
  runs: domains.map((d, i) => ({
    seedUrl: `https://s${i}.example/`,
    steps: 3000,
    relevant: 100,
    harvestRate: 1 / 30,
    relevantDomains: d,
    stopReason: 'max-pages',
    failures: 0,
    linksDiscovered: 10,
    linksOutOfWeb: 1,
  })),
  webRelevantPages: 4375,
  webRelevantDomains: 13,
  minDomains: Math.min(...domains),
  medianDomains: 20,
  dryRuns: 0,
  isGoalMet: true,
});

describe('oracleReachMarkdown', () => {
  it('shows per topic and domain limit the ceiling of the web, min and median domains, and the goal at no limit', () => {
    const md = oracleReachMarkdown([reach('none', [12, 20, 25]), reach('100', [3, 4, 5])], 3000);
    expect(md).toContain('| hardware | none | 4375 | 13 | 3 | 12 | 20 | 0 | yes |');
    expect(md).toContain('| hardware | 100 | 4375 | 13 | 3 | 3 | 20 | 0 |  |');
    expect(md).toContain('## hardware, domain limit 100');
    expect(md).toContain('| https://s1.example/ | 3000 | 100 | 3.3 | 20 | 0 | max-pages |');
  });
});

describe('bestRunPerSeed', () => {
  it('takes for each seed the run with the most relevant domains, the first limit on ties', () => {
    const none = [
      { relevantDomains: 2, limit: 'none' },
      { relevantDomains: 9, limit: 'none' },
    ];
    const hundred = [
      { relevantDomains: 11, limit: '100' },
      { relevantDomains: 9, limit: '100' },
    ];
    expect(bestRunPerSeed([none, hundred]).map((r) => r.limit)).toEqual(['100', 'none']);
  });
});
