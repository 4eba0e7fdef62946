import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../common/index.js';
import { CrawlMonitor } from './crawl-monitor.js';
import { liveSource } from './dashboard-source.js';
import { readOnlySource } from './read-only-source.js';
import { startDashboard } from './server.js';
import { staticDir } from './static-files.js';
import { startTestCrawl, type TestCrawl } from './test-crawl.js';
import { PROMTOOL, promtoolCheck } from './test-promtool.js';

const json = { 'content-type': 'application/json' };
interface PagesReply {
  total: number;
  pages: { id: number; reward: number; title: string; isPage: boolean }[];
}
async function getJson<T>(url: string): Promise<T> {
  return (await (await fetch(url)).json()) as T;
}

describe('dashboard server on a live crawl', () => {
  let t: TestCrawl;
  let base: string;
  beforeAll(async () => {
    t = await startTestCrawl({ pauseAtStep: 40 });
    base = t.dashboard.url.replace(/\/$/, '');
    while (!t.crawler.isPaused || t.crawler.progress().inFlight > 0)
      await new Promise((r) => setTimeout(r, 20));
  });
  afterAll(() => t.close());

  it('binds 127.0.0.1 by default and needs no token there', async () => {
    expect(t.dashboard.host).toBe('127.0.0.1');
    expect(t.dashboard.token).toBeUndefined();
    const status = await (await fetch(`${base}/api/status`)).json();
    expect(status).toMatchObject({ isLive: true, state: 'paused', strategy: 'best-first', judgeVersion: 0 });
  });

  it('changes nothing on GET: state changes are POST with a JSON body only', async () => {
    const get = await fetch(`${base}/api/resume`);
    expect(get.status).toBe(405);
    const form = await fetch(`${base}/api/resume`, {
      method: 'POST',
      body: 'a=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    expect(t.crawler.isPaused).toBe(true);
  });

  it('takes a POST with no body and no content type (curl -X POST), unless another origin sent it', async () => {
    const foreign = await fetch(`${base}/api/resume`, {
      method: 'POST',
      headers: { origin: 'http://evil.example' },
    });
    expect(foreign.status).toBe(403);
    expect(t.crawler.isPaused).toBe(true);
    const bare = await fetch(`${base}/api/pause`, { method: 'POST' });
    expect(bare.status).toBe(200);
    expect(await bare.json()).toMatchObject({ state: 'paused' });
  });

  it('refuses requests addressed to a non-loopback host name (DNS rebinding)', async () => {
    // fetch() cannot set Host; node:http can.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${base}/api/status`, { headers: { host: 'attacker.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it('lists pages filtered by relevance, domain and text, and stores labels', async () => {
    const all = await getJson<PagesReply>(`${base}/api/pages?limit=500`);
    expect(all.total).toBeGreaterThanOrEqual(40);
    const relevant = await getJson<PagesReply>(`${base}/api/pages?relevance=relevant`);
    expect(relevant.pages.every((p: { reward: number }) => p.reward > 0)).toBe(true);
    const evil = await getJson<PagesReply>(`${base}/api/pages?domain=evil.test`);
    expect(evil.pages.some((p: { title: string }) => p.title.includes('<script>'))).toBe(true);
    const page = all.pages.find((p) => p.isPage)!;
    const res = await fetch(`${base}/api/labels`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ pageId: page.id, isRelevant: true }),
    });
    expect(res.status).toBe(200);
    const labels = await getJson<{ pageId: number }[]>(`${base}/api/labels`);
    expect(labels.map((l: { pageId: number }) => l.pageId)).toEqual([page.id]);
    const bad = await fetch(`${base}/api/labels`, { method: 'POST', headers: json, body: '{"pageId": "x"}' });
    expect(bad.status).toBe(400);
    expect((await fetch(`${base}/api/pages?limit=-1`)).status).toBe(400);
  });

  it('adds seeds to the running crawl', async () => {
    const seed = t.sandbox.web!.seedUrls(5, { relevant: true })[4]!;
    const res = await fetch(`${base}/api/seeds`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ urls: [seed] }),
    });
    expect(await res.json()).toEqual({ added: [seed] });
  });

  it('serves Prometheus metrics under the namespaced names', async () => {
    const text = await (await fetch(`${base}/metrics`)).text();
    for (const name of [
      'tres_crawl_harvest_rate',
      'tres_crawl_relevant_domains',
      'tres_frontier_size',
      'tres_crawl_is_paused 1',
    ])
      expect(text).toContain(name);
    expect(text).toMatch(/tres_crawl_steps_total \d+/);
    if (PROMTOOL) expect(promtoolCheck(text)).toEqual({ code: 0, output: '' });
  });

  it('reads a crawl that another writer holds from its pages.jsonl, read-only', async () => {
    const source = await readOnlySource(t.outDir);
    try {
      const live = t.crawler.openStore!.queryPages({ limit: 1 });
      const read = source.queryPages({ relevance: 'all', limit: 5 });
      expect(read.total).toBe(live.total);
      expect(read.pages[0]?.url).toBe(live.pages[0]?.url);
      // The figures reach the crawl's last page; the chart's last point may stop short of it (no
      // point from a closing stretch under a second, f2b702a), never past it.
      expect(source.status()).toMatchObject({
        isLive: false,
        state: 'read-only',
        progress: { steps: live.total },
      });
      expect(source.monitor.samples().at(-1)?.step ?? 0).toBeLessThanOrEqual(live.total);
      expect(source.controls).toBeUndefined();
    } finally {
      source.close();
    }
  });

  it('answers every path and method its OpenAPI file documents', async () => {
    const spec = JSON.parse(readFileSync(join(staticDir(), 'openapi.json'), 'utf8')) as {
      paths: Record<string, Record<string, unknown>>;
    };
    for (const [path, methods] of Object.entries(spec.paths)) {
      for (const method of Object.keys(methods)) {
        // Stop last: it ends the crawl. Retrain needs labels of both classes (checked elsewhere).
        // A question's path holds its id: answered in questions.test.ts.
        if (path === '/api/stop' || path === '/api/retrain' || path.includes('{')) continue;
        const body =
          path === '/api/seeds'
            ? { urls: [t.sandbox.web!.seedUrls(1)[0]] }
            : path === '/api/labels'
              ? { pageId: 1, isRelevant: false }
              : {};
        const init = method === 'post' ? { method: 'POST', headers: json, body: JSON.stringify(body) } : {};
        const res = await fetch(`${base}${path}`, init);
        expect([path, method, res.status]).toEqual([path, method, 200]);
      }
    }
    const stop = await fetch(`${base}/api/stop`, { method: 'POST', headers: json, body: '{}' });
    expect(((await stop.json()) as { state: string }).state).toBe('stopping');
  });
});

describe('dashboard token', () => {
  it('requires a token off loopback, as a bearer header or ?token=, and never accepts a wrong one', async () => {
    const monitor = new CrawlMonitor();
    const source = {
      ...liveSource({
        crawler: {
          pause() {},
          resume() {},
          stop() {},
          addSeeds: () => [],
          isPaused: false,
          judgeVersion: 0,
          currentJudge: { name: 'keywords' },
          progress: () => {
            throw new Error('unused');
          },
          options: { ask: false, maxQuestions: 50 },
          openQuestions: () => [],
          answerQuestion: () => false,
        },
        store: {
          getMeta: () => null,
          queryPages: () => ({ total: 0, pages: [] }),
          labels: () => [],
        } as never,
        monitor,
        strategy: 'bfs',
        outDir: '/nowhere',
      }),
    };
    await expect(startDashboard(source, { host: '0.0.0.0', port: 0, token: false })).rejects.toThrow(
      ConfigError,
    );
    const d = await startDashboard(source, { host: '0.0.0.0', port: 0 });
    try {
      expect(d.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const at = `http://127.0.0.1:${d.port}`;
      expect((await fetch(`${at}/api/status`)).status).toBe(401);
      expect((await fetch(`${at}/metrics`)).status).toBe(401);
      expect((await fetch(`${at}/api/status`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(
        401,
      );
      expect((await fetch(`${at}/api/status?token=${d.token!.slice(0, -1)}x`)).status).toBe(401);
      expect(
        (await fetch(`${at}/api/status`, { headers: { authorization: `Bearer ${d.token}` } })).status,
      ).toBe(200);
      expect((await fetch(`${at}/api/status?token=${d.token}`)).status).toBe(200);
      // A state change with a token is still POST only.
      const get = await fetch(`${at}/api/pause?token=${d.token}`);
      expect(get.status).toBe(405);
      // The page itself holds no data and loads without a token; its API calls carry it.
      expect((await fetch(`${at}/`)).status).toBe(200);
    } finally {
      await d.close();
    }
  });
});
