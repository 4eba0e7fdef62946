import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { keywordsOf, type Sandbox, sandboxResolveRules, serveSandbox } from '../../sandbox/index.js';
import { PROMTOOL, promtoolCheck } from '../../ui/test-promtool.js';
import { runCrawlCommand } from './crawl.js';
import { serveCrawlFolder } from './ui.js';

const TOPIC = 'computer hardware';

describe('tres crawl --ui and tres ui', () => {
  let sandbox: Sandbox;
  const base = tempDir('tres-ui-cli-');
  let seeds: string;
  beforeAll(async () => {
    sandbox = await serveSandbox({
      web: {
        seed: 9,
        hostCount: 10,
        pageCount: 3000,
        topics: [TOPIC, 'cooking recipes'],
        relevantTopic: TOPIC,
      },
    });
    seeds = join(base, 'seeds.txt');
    writeFileSync(seeds, `${sandbox.web!.seedUrls(2, { relevant: true }).join('\n')}\n`);
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('serves the live dashboard of the crawl it runs; Stop there ends the crawl, resumable', async () => {
    const out = join(base, 'live');
    // In this process (a spawned CLI starts slowly on a loaded machine); the address is printed.
    let url = '';
    const printed = new Promise<void>((resolve) => {
      const write = process.stderr.write.bind(process.stderr);
      vi.spyOn(process.stderr, 'write').mockImplementation(
        (chunk: string | Uint8Array, ...rest: unknown[]) => {
          const m = /dashboard at (http:\/\/\S+)/.exec(String(chunk));
          if (m) {
            url = m[1]!;
            resolve();
          }
          return (write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
        },
      );
    });
    const running = runCrawlCommand({
      seeds,
      out,
      keywords: keywordsOf(TOPIC),
      minDelayMs: '0',
      allowLoopback: true,
      resolve: sandboxResolveRules(sandbox.server),
      maxPages: '100000',
      concurrency: '2',
      quiet: true,
      ui: true,
      uiPort: '0',
      maxQuestions: '7',
    });
    await printed;
    vi.restoreAllMocks();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const status = (await (await fetch(`${url}api/status`)).json()) as { isLive: boolean; state: string };
    expect(status).toMatchObject({ isLive: true, state: 'running' });
    expect((await fetch(url)).headers.get('content-type')).toContain('text/html');
    expect((await fetch(`${url}vendor/uPlot.iife.min.js`)).status).toBe(200);
    // With the dashboard the crawl asks, within --max-questions.
    const questions = (await (await fetch(`${url}api/questions`)).json()) as {
      isAsking: boolean;
      maxQuestions: number;
    };
    expect(questions).toMatchObject({ isAsking: true, maxQuestions: 7 });
    const json = { 'content-type': 'application/json' };
    expect((await fetch(`${url}api/stop`, { method: 'POST', headers: json, body: '{}' })).status).toBe(200);
    const summary = await running;
    expect(summary.stopReason).toBe('interrupted'); // resumable
    // The dashboard closed with the crawl.
    await expect(fetch(`${url}api/status`)).rejects.toThrow();

    const ro = await serveCrawlFolder(out, { port: '0' });
    try {
      const s = (await (await fetch(`${ro.url}api/status`)).json()) as {
        state: string;
        strategy: string;
        progress: { steps: number };
      };
      expect(s.state).toBe('read-only');
      expect(s.strategy).toBe('coverage'); // the default strategy
      expect(s.progress.steps).toBe(summary.steps);
      const pages = (await (await fetch(`${ro.url}api/pages`)).json()) as { total: number };
      expect(pages.total).toBe(summary.steps);
      const pause = await fetch(`${ro.url}api/pause`, { method: 'POST', headers: json, body: '{}' });
      expect(pause.status).toBe(409);
      const metrics = await (await fetch(`${ro.url}metrics`)).text();
      expect(metrics).not.toMatch(/NaN/i);
      if (PROMTOOL) expect(promtoolCheck(metrics)).toEqual({ code: 0, output: '' });
    } finally {
      await ro.close();
    }
  }, 60_000);
});
