import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from 'tres-crawler';
import { tempDir } from 'tres-testing/temp-dir';
import { describe, expect, it } from 'vitest';
import { writeSyntheticTopic } from './crawl-bench-test-utils.js';
import { BENCH_URL_FILTER, openBenchWeb, parseWebSpec } from './crawl-bench-topic.js';

const dir = tempDir('tres-bench-topic-');

function topicFile(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

describe('parseWebSpec', () => {
  it('reads docweb (the default), synthetic options, and a synthetic folder relative to the topic file', () => {
    expect(parseWebSpec(undefined, '/t/a.yaml')).toEqual({ kind: 'docweb' });
    expect(parseWebSpec('docweb', '/t/a.yaml')).toEqual({ kind: 'docweb' });
    expect(parseWebSpec({ synthetic: { seed: 3 } }, '/t/a.yaml')).toEqual({
      kind: 'synthetic',
      options: { seed: 3 },
    });
    expect(parseWebSpec({ synthetic: 'web' }, '/t/a.yaml')).toEqual({
      kind: 'synthetic-folder',
      dir: '/t/web',
    });
  });

  it('names the file and the field for anything else', () => {
    expect(() => parseWebSpec('the internet', '/t/a.yaml')).toThrow(/topic file \/t\/a\.yaml: web must be/);
  });
});

describe('BENCH_URL_FILTER', () => {
  it('keeps URLs addressed by IP out of the crawl (resolve rules cannot catch them) and lets host names through', () => {
    const pattern = BENCH_URL_FILTER.excludePatterns![0] as RegExp;
    for (const url of [
      'http://127.0.0.1:8000/',
      'https://[::1]/x',
      'http://user@10.0.0.1',
      'http://8.8.8.8?q',
    ])
      expect(pattern.test(url), url).toBe(true);
    for (const url of [
      'http://127.0.0.1.example.com/',
      'https://docs.kernel.org/usb/',
      'http://a.test/127.0.0.1',
    ])
      expect(pattern.test(url), url).toBe(false);
  });
});

describe('openBenchWeb with a synthetic-web topic', () => {
  it('serves the web on loopback, takes relevant home pages as seeds and labels pages from the web', async () => {
    const web = await openBenchWeb(writeSyntheticTopic(dir, 'synthetic-ok', 600));
    try {
      expect(web.topic.name).toBe('synthetic-ok');
      expect(web.topic.keywords).toEqual(['astronomy', 'telescopes']);
      expect(web.topic.seeds).toHaveLength(5);
      for (const seed of web.topic.seeds) expect(web.topic.labelOf(seed)).toBe(true);
      expect(web.topic.labelOf('http://not-in-this-web.example/')).toBe(false);
      expect(web.net.resolveRules?.at(-1)).toBe('*=none'); // nothing leaves loopback
      expect(web.net.minDelayMs).toBe(0);
      expect(web.description).toMatch(/synthetic web \(seed 11\): 600 pages on 30 hosts/);
    } finally {
      await web.close();
    }
  });

  it('rejects a field a synthetic topic does not have, naming it', async () => {
    const file = topicFile('bad-field.yaml', 'name: x\nweb: { synthetic: { seed: 1 } }\nrelevant: []\n');
    await expect(openBenchWeb(file)).rejects.toThrow(
      /bad-field\.yaml: relevant is not a field of a synthetic-web topic/,
    );
  });

  it('rejects invalid synthetic options and seeds the web does not serve, naming the field', async () => {
    const bad = topicFile('bad-options.yaml', 'name: x\nweb: { synthetic: { hostCount: -1 } }\n');
    const error = await openBenchWeb(bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toMatch(/bad-options\.yaml: web\.synthetic: .*hostCount/);
    const seeds = topicFile(
      'bad-seed.yaml',
      'name: x\nweb: { synthetic: { seed: 1, hostCount: 20, pageCount: 400 } }\nseeds: [http://elsewhere.example/]\n',
    );
    await expect(openBenchWeb(seeds)).rejects.toThrow(
      /seeds\[0\] 'http:\/\/elsewhere\.example\/': host elsewhere\.example is not served/,
    );
  });

  it('checks a DocWeb topic with the DocWeb topic rules (the web field is optional)', async () => {
    const file = topicFile(
      'docweb-bad.yaml',
      'name: hw\nweb: docweb\nkeywords: [a]\nrelevant: []\nseeds: []\n',
    );
    await expect(openBenchWeb(file, { cacheDir: join(dir, 'no-cache') })).rejects.toThrow(
      /docweb-bad\.yaml: relevant/,
    );
  });
});
