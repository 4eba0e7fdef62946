import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocweb } from './build.js';
import { type SampleOptions, sampleTrainingData } from './sample.js';
import { type DocwebFixture, makeDocwebFixture } from './test-fixture.js';
import { loadTopic, type Topic } from './topic.js';

let fx: DocwebFixture;
let hardware: Topic;

beforeAll(async () => {
  fx = makeDocwebFixture();
  await buildDocweb({
    cacheDir: fx.cacheDir,
    manifestPath: fx.manifestPath,
    topicsDir: fx.topicsDir,
    run: fx.run,
    aptListsDir: fx.aptListsDir,
    shouldBuildHub: false,
    log: () => {},
  });
  hardware = loadTopic(join(fx.topicsDir, 'hardware.yaml'));
});
afterAll(() => fx?.cleanup());

const sample = (out: string, extra: Partial<SampleOptions> = {}) =>
  sampleTrainingData({
    topic: hardware,
    outDir: join(fx.root, out),
    cacheDir: fx.cacheDir,
    relevant: 2,
    ratio: 2,
    minWords: 5,
    ...extra,
  });
const manifestOf = (out: string) => readFileSync(join(fx.root, out, 'manifest.tsv'), 'utf8');

describe('sampleTrainingData', () => {
  it('writes relevant pages and ratio times as many irrelevant pages from other sites, with a manifest', () => {
    const r = sample('s1');
    expect(r).toMatchObject({ relevant: 2, irrelevant: 4, relevantAvailable: 3, irrelevantSites: 2 });
    expect(readdirSync(join(fx.root, 's1', 'relevant'))).toEqual(['00001.html', '00002.html']);
    expect(readdirSync(join(fx.root, 's1', 'irrelevant'))).toHaveLength(4);
    const rows = manifestOf('s1')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split('\t'));
    for (const [, label, url] of rows) expect(hardware.labelOf(url as string)).toBe(label === 'relevant');
    // Other sites only: hw.example/mm/ is irrelevant but its site has relevant pages.
    expect(rows.filter(([, l, url]) => l === 'irrelevant' && (url as string).includes('hw.example'))).toEqual(
      [],
    );
    expect(readFileSync(join(fx.root, 's1', 'keywords.txt'), 'utf8')).toBe('hardware\ndriver\n');
    expect(JSON.parse(readFileSync(join(fx.root, 's1', 'sample.json'), 'utf8'))).toMatchObject({
      topic: 'hardware',
      seed: '1',
    });
  });

  it('draws the same pages for the same seed and other pages for another seed', () => {
    sample('a', { seed: '7', ratio: 1 });
    sample('b', { seed: '7', ratio: 1 });
    expect(manifestOf('a')).toBe(manifestOf('b'));
    const others = ['8', '9', '10', '11'].map((seed) => {
      sample(`c${seed}`, { seed, ratio: 1 });
      return manifestOf(`c${seed}`);
    });
    expect(others.some((m) => m !== manifestOf('a'))).toBe(true);
  });

  it('passes over pages too short to train on and writes Latin-1 pages as UTF-8', () => {
    const r = sample('all', { relevant: 10, ratio: 10, irrelevantFrom: 'all' });
    const rows = manifestOf('all');
    expect(rows).not.toContain('tiny.html');
    expect(rows).toContain('https://hw.example/mm/index.html');
    expect(r.passedOver).toBeGreaterThan(0);
    const notes = rows
      .split('\n')
      .find((l) => l.includes('notes.html'))
      ?.split('\t')[0] as string;
    expect(readFileSync(join(fx.root, 'all', notes), 'utf8')).toContain('caf\u00e9');
  });

  it('refuses to mix with an existing sample unless told to replace it', () => {
    sample('x');
    expect(() => sample('x')).toThrow(/already holds a sample.*--force/);
    expect(() => sample('x', { shouldOverwrite: true })).not.toThrow();
    expect(existsSync(join(fx.root, 'x', 'relevant', '00001.html'))).toBe(true);
  });

  it('checks its options and names the field', () => {
    expect(() => sample('y', { ratio: 0 })).toThrow(/ratio must be a number > 0/);
    expect(() => sample('y', { relevant: 1.5 })).toThrow(/relevant must be a whole number/);
  });
});
