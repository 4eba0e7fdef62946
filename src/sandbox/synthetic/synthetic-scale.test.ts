import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { createRng } from '../../common/index.js';
import { createSyntheticWeb } from './synthetic-web.js';

// A real collection between measurements; without it heap figures are noise.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const heapUsed = () => {
  gc();
  return process.memoryUsage().heapUsed;
};

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('a procedural web at scale', () => {
  it('makes a million-page web in a few megabytes and renders pages without growing', () => {
    const before = heapUsed();
    const started = performance.now();
    const web = createSyntheticWeb({ pageCount: 1_000_000, hostCount: 5000, seed: 'million' });
    const createdMs = performance.now() - started;
    const afterCreate = heapUsed();
    const rng = createRng('render');
    let bytes = 0;
    const renderStarted = performance.now();
    for (let k = 0; k < 1000; k++) {
      const { host, index } = web.pageAt(rng.int(web.pageCount));
      const url = new URL(web.urlOf(host, index));
      const page = web.renderPage(url.hostname, url.pathname);
      expect(page?.status).toBe(200);
      bytes += page?.html.length ?? 0;
    }
    const renderMs = performance.now() - renderStarted;
    const afterRender = heapUsed();
    const mb = (n: number) => (n / 2 ** 20).toFixed(2);
    console.log(
      `1M pages / 5000 hosts: created in ${createdMs.toFixed(0)} ms, host table ~${mb(web.memoryBytes())} MiB, ` +
        `heap +${mb(afterCreate - before)} MiB; 1000 renders in ${renderMs.toFixed(0)} ms ` +
        `(mean ${(bytes / 1000).toFixed(0)} B/page), heap +${mb(afterRender - afterCreate)} MiB after`,
    );
    expect(web.pageCount).toBe(1_000_000);
    expect(web.memoryBytes()).toBeLessThan(8 * 2 ** 20);
    expect(afterCreate - before).toBeLessThan(16 * 2 ** 20);
    expect(afterRender - afterCreate).toBeLessThan(4 * 2 ** 20);
  });

  it('streams one label line per page for a 50k-page web', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tres-labels-'));
    dirs.push(dir);
    const web = createSyntheticWeb({ pageCount: 50_000, hostCount: 500, seed: 'labels' });
    const file = join(dir, 'labels.tsv');
    expect(await web.writeLabels(file)).toBe(50_000);
    let lines = 0;
    let relevant = 0;
    const urls = new Set<string>();
    let header = '';
    for await (const line of createInterface({ input: createReadStream(file) })) {
      if (lines++ === 0) {
        header = line;
        continue;
      }
      const [url, label, topic] = line.split('\t') as [string, string, string];
      urls.add(url);
      if (label === '1') relevant++;
      if (lines % 997 === 0) {
        expect(web.labelOf(url)).toBe(label === '1');
        expect(web.topicOf(url)).toBe(topic);
      }
    }
    expect(header).toBe('url\tlabel\ttopic');
    expect(lines).toBe(50_001);
    expect(urls.size).toBe(50_000);
    expect(relevant).toBeGreaterThan(0);
  });
});
