/**
 * The frontier a crawl ends with is the one its resume starts with, and the one `tres ui` shows,
 * for the strategies whose frontier drops fetched URLs lazily (their samples stay until drawn, and
 * a resume's replay observes fetched URLs without drawing them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMain } from '../test-cli.js';
import { type SandboxCrawl, startSandboxCrawl } from '../test-sandbox-crawl.js';
import { serveCrawlFolder } from './ui.js';

/** A figure of the summary, e.g. `frontier left   1604`. */
const figure = (text: string, label: string) =>
  Number(new RegExp(`${label} +(\\d+)`).exec(text)?.[1] ?? Number.NaN);

/** The frontier figures of the progress lines, in order. */
const progressFrontiers = (stderr: string) =>
  [...stderr.matchAll(/^pages .*frontier (\d+)/gm)].map((m) => Number(m[1]));

describe('the frontier across a resume', () => {
  let web: SandboxCrawl;
  beforeAll(async () => {
    web = await startSandboxCrawl({ seed: 53, pageCount: 1500, prefix: 'tres-resume-frontier-' });
  });
  afterAll(() => web.close());

  it.each([
    'bfs',
    'best-first',
    'ache',
    'rlwcs',
    'apprentice',
    'han-async',
    'lim-dfs',
    'lim-q',
    'tres-async',
  ])(
    '%s: the end figure, the resume first figure and tres ui agree',
    { timeout: 120_000 },
    async (strategy) => {
      const out = `${web.base}/${strategy}`;
      const first = await runMain([
        'crawl',
        ...['--seeds', web.seedsFile, '--out', out, ...web.flags],
        ...['--strategy', strategy, '--max-pages', '150', '--concurrency', '2'],
      ]);
      expect(first.code, first.stderr).toBe(0);
      const left = figure(first.stdout, 'frontier left');
      expect(left).toBeGreaterThan(0);

      const dashboard = await serveCrawlFolder(out, { uiPort: '0' });
      try {
        const status = (await (await fetch(`${dashboard.url}api/status`)).json()) as {
          progress: { frontierSize: number };
        };
        expect(status.progress.frontierSize).toBe(left);
      } finally {
        await dashboard.close();
      }

      // With the budget spent: nothing is fetched, the figure is the replayed frontier's.
      const spent = await runMain(['crawl', '--resume', out]);
      expect(spent.code, spent.stderr).toBe(0);
      expect(figure(spent.stdout, 'frontier left')).toBe(left);
      expect(progressFrontiers(spent.stderr)).toContain(left);

      // With more budget: the first progress line, before any fetch, shows the same frontier.
      const more = await runMain(['crawl', '--resume', out, '--max-pages', '200']);
      expect(more.code, more.stderr).toBe(0);
      expect(figure(more.stdout, 'pages fetched')).toBe(200);
      expect(progressFrontiers(more.stderr)[0]).toBe(left);
    },
  );
});
