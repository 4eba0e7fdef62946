import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../common/index.js';
import { fetchVia } from '../replay/test-client.js';
import { serveSandbox } from '../serve-sandbox.js';
import { loadSyntheticWeb } from './synthetic-load.js';
import { createSyntheticWeb, type SyntheticWeb } from './synthetic-web.js';

let root: string;
let web: SyntheticWeb;
let dir: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tres-web-'));
  dir = join(root, 'web');
  web = createSyntheticWeb({ hostCount: 12, pageCount: 400, seed: 'files' });
  await web.materialize(dir);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('materialize and loadSyntheticWeb', () => {
  it('writes web.json, labels.tsv and one HTML file per page', async () => {
    expect(JSON.parse(await readFile(join(dir, 'web.json'), 'utf8'))).toEqual(web.options);
    const labels = (await readFile(join(dir, 'labels.tsv'), 'utf8')).trimEnd().split('\n');
    expect(labels).toHaveLength(401);
    let files = 0;
    for (const host of await readdir(join(dir, 'sites'))) {
      files += (await readdir(join(dir, 'sites', host, 'p'))).length + 1; // + index.html
    }
    expect(files).toBe(400);
  });

  it('recreates the same pages from web.json', async () => {
    const loaded = await loadSyntheticWeb(dir);
    expect(loaded.hosts).toEqual(web.hosts);
    for (let id = 0; id < web.pageCount; id += 37) {
      const { host, index } = web.pageAt(id);
      const url = new URL(web.urlOf(host, index));
      expect(loaded.renderPage(url.hostname, url.pathname)).toEqual(
        web.renderPage(url.hostname, url.pathname),
      );
    }
  });

  it('throws a ConfigError naming the file for a folder without web.json', async () => {
    await expect(loadSyntheticWeb(join(root, 'nothing'))).rejects.toThrow(ConfigError);
    await expect(loadSyntheticWeb(join(root, 'nothing'))).rejects.toThrow(/web\.json/);
  });

  it('refuses to write more page files than maxPageFiles', async () => {
    await expect(
      web.materialize(join(root, 'too-many'), { writePages: true, maxPageFiles: 100 }),
    ).rejects.toThrow(/maxPageFiles/);
  });
});

describe('serveSandbox', () => {
  it('serves a materialized web from its files, byte-identical to the procedural pages', async () => {
    const fromFiles = await serveSandbox({ web: dir });
    const procedural = await serveSandbox({ web: dir, preferFiles: false });
    try {
      for (let id = 0; id < web.pageCount; id += 41) {
        const url = new URL(web.urlOf(web.pageAt(id).host, web.pageAt(id).index));
        const a = await fetchVia({ port: fromFiles.server.port, host: url.hostname, path: url.pathname });
        const b = await fetchVia({ port: procedural.server.port, host: url.hostname, path: url.pathname });
        expect(a.status).toBe(200);
        expect(a.body.equals(b.body)).toBe(true);
      }
    } finally {
      await fromFiles.close();
      await procedural.close();
    }
  });

  it('serves a procedural web and the fault sites, crawlable link by link over keep-alive', async () => {
    const sandbox = await serveSandbox({
      web: { hostCount: 20, pageCount: 2000, seed: 'crawl' },
      faults: true,
    });
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    try {
      expect(sandbox.seedUrls).toContain('http://index.fault.test/');
      const sandboxWeb = sandbox.web as SyntheticWeb;
      const queue = sandbox.seedUrls.filter((url) => sandboxWeb.labelOf(url) !== undefined);
      expect(queue.length).toBe(Math.min(5, sandboxWeb.seedUrls(1000, { relevant: true }).length));
      expect(queue.length).toBeGreaterThan(0);
      const seen = new Set(queue);
      const statuses = new Map<string, number>();
      for (let fetched = 0; fetched < 150 && queue.length > 0; fetched++) {
        const url = new URL(queue.shift() as string);
        const res = await fetchVia({
          port: sandbox.server.port,
          host: url.hostname,
          path: url.pathname,
          agent,
        });
        const label = sandboxWeb.labelOf(url.href);
        statuses.set(String(res.status), (statuses.get(String(res.status)) ?? 0) + 1);
        expect(res.status).toBe(label === undefined ? 404 : 200);
        for (const match of res.body.toString().matchAll(/<a href="([^"]*)"/g)) {
          const next = new URL(match[1] as string, url);
          next.hash = '';
          if (!sandboxWeb.hosts.includes(next.hostname) || seen.has(next.href)) continue;
          seen.add(next.href);
          queue.push(next.href);
        }
      }
      expect(statuses.get('200')).toBeGreaterThan(100);
    } finally {
      agent.destroy();
      await sandbox.close();
    }
  });

  it('throws a ConfigError when there is nothing to serve', async () => {
    await expect(serveSandbox({})).rejects.toThrow(ConfigError);
  });
});
