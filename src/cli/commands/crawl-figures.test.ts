/**
 * Every figure a crawl shows agrees with every other: one live crawl of the built CLI with its
 * dashboard, /metrics and /api/status sampled while it runs (counters never go down; attempts are
 * pages plus failures, and failures the sum of failures by reason, in every sample), then the
 * closing summary, the last progress line, the store, the read-only `tres ui` and a resume with
 * nothing left to fetch, which must all give the same counts and the same frontier.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withCrawlReader } from '../../store/index.js';
import { runMain, spawnCli } from '../test-cli.js';
import { type SandboxCrawl, startSandboxCrawl } from '../test-sandbox-crawl.js';
import { serveCrawlFolder } from './ui.js';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Prometheus text as `name{labels}` -> value (HELP and TYPE lines left out). */
function parseMetrics(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

const sumOfReasons = (m: Map<string, number>) =>
  [...m].filter(([k]) => k.startsWith('tres_crawl_failures_by_reason_total{')).reduce((n, [, v]) => n + v, 0);

/** A figure of the summary, e.g. `frontier left   1604`. */
const figure = (text: string, label: string) =>
  Number(new RegExp(`${label} +(\\d+)`).exec(text)?.[1] ?? Number.NaN);

describe('the figures of one crawl', () => {
  let web: SandboxCrawl;
  beforeAll(async () => {
    web = await startSandboxCrawl({ seed: 52, pageCount: 1500, prefix: 'tres-figures-' });
  });
  afterAll(() => web.close());

  it('agree between progress line, summary, /api/status, /metrics, the store, tres ui and a resume', {
    timeout: 120_000,
  }, async () => {
    const out = `${web.base}/crawl`;
    const port = await freePort();
    const flags = web.flags.filter((f) => f !== '--quiet').map((f) => (f === '0' ? '25' : f)); // --min-delay-ms 25
    const child = spawnCli([
      'crawl',
      ...['--seeds', web.seedsFile, '--out', out, ...flags],
      ...['--max-pages', '300', '--concurrency', '2', '--ui', '--ui-port', String(port)],
    ]);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => {
      stdout += d;
    });
    child.stderr?.on('data', (d) => {
      stderr += d;
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    let isDone = false;
    void exited.then(() => {
      isDone = true;
    });

    // Sample /metrics and /api/status while the crawl runs.
    const samples: Map<string, number>[] = [];
    const statuses: { steps: number; pages: number; failures: number }[] = [];
    while (!isDone) {
      await new Promise((r) => setTimeout(r, 100));
      try {
        const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
        const status = (await (await fetch(`http://127.0.0.1:${port}/api/status`)).json()) as {
          progress: { steps: number; pages: number; failures: number } | null;
        };
        samples.push(parseMetrics(metrics));
        if (status.progress) statuses.push(status.progress);
      } catch {
        // not listening yet, or already closed
      }
    }
    expect(await exited, stderr).toBe(0);
    const running = samples.filter((m) => m.has('tres_crawl_steps_total'));
    expect(running.length, 'samples taken while the crawl ran').toBeGreaterThan(3);
    const counters = [
      'tres_crawl_steps_total',
      'tres_crawl_pages_total',
      'tres_crawl_failures_total',
      'tres_learn_updates_total',
    ];
    running.forEach((m, i) => {
      const steps = m.get('tres_crawl_steps_total') ?? 0;
      const failures = m.get('tres_crawl_failures_total') ?? 0;
      expect(steps, `sample ${i}`).toBe((m.get('tres_crawl_pages_total') ?? 0) + failures);
      expect(sumOfReasons(m), `sample ${i}`).toBe(failures);
      for (const name of counters) {
        if (i > 0)
          expect(m.get(name) ?? 0, `${name} in sample ${i}`).toBeGreaterThanOrEqual(
            running[i - 1]!.get(name) ?? 0,
          );
      }
    });
    expect(running.at(-1)!.get('tres_learn_updates_total')).toBeGreaterThan(0);
    for (const p of statuses) expect(p.steps).toBe(p.pages + p.failures);

    // The summary, the last progress line and the store.
    const steps = figure(stdout, 'pages fetched');
    const failed = Number(/pages fetched +\d+ \((\d+) failed\)/.exec(stdout)?.[1]);
    const frontier = figure(stdout, 'frontier left');
    expect(steps).toBe(300);
    expect(stderr).toMatch(/dashboard at http:\/\/127\.0\.0\.1:\d+\/\n/);
    const lastLine =
      stderr
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('pages '))
        .at(-1) ?? '';
    expect(lastLine).toContain(`pages ${steps}/300 100%`);
    expect(lastLine).toContain(`frontier ${frontier}`);
    if (failed > 0) expect(lastLine).toContain(`failed ${failed}`);
    const stored = withCrawlReader(out, (r) => ({ counts: r.counts(), reasons: r.failureReasons() }));
    expect(stored.counts.attempts).toBe(steps);
    expect(stored.counts.failures).toBe(failed);
    for (const r of stored.reasons) expect(stdout).toMatch(new RegExp(`${r.code} +${r.count} `));

    // tres ui: the same counts and frontier, and the strategy's counters with their own help.
    const dashboard = await serveCrawlFolder(out, { uiPort: '0' });
    try {
      const status = (await (await fetch(`${dashboard.url}api/status`)).json()) as {
        progress: { steps: number; failures: number; frontierSize: number };
      };
      expect(status.progress).toMatchObject({ steps, failures: failed, frontierSize: frontier });
      const metrics = await (await fetch(`${dashboard.url}metrics`)).text();
      expect(metrics).toContain(
        '# HELP tres_learn_updates_total learn/updates: updates of the online link model',
      );
      expect(metrics).toContain('# TYPE tres_learn_updates_total counter');
      expect(metrics).toContain('# TYPE tres_coverage_rechecks_total counter');
      const read = parseMetrics(metrics);
      expect(read.get('tres_frontier_size')).toBe(frontier);
      expect(sumOfReasons(read)).toBe(failed);
    } finally {
      await dashboard.close();
    }

    // A resume with the budget spent starts and ends with the frontier the crawl ended with.
    const resumed = await runMain(['crawl', '--resume', out]);
    expect(resumed.code).toBe(0);
    expect(figure(resumed.stdout, 'frontier left')).toBe(frontier);
    expect(resumed.stderr).toContain(`frontier ${frontier}`);
  });
});
