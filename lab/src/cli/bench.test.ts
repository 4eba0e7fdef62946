import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { splitStrategySpecs } from 'tres-crawler/internals';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocweb } from '../docweb/index.js';
import { type DocwebFixture, fixtureBuildOptions, makeDocwebFixture } from '../docweb/test-fixture.js';
import { registerBenchCommand } from './bench.js';
import { runLabCommand } from './test-run-command.js';

let fx: DocwebFixture;

beforeAll(async () => {
  fx = makeDocwebFixture();
  await buildDocweb(fixtureBuildOptions(fx));
});
afterAll(() => fx?.cleanup());

const run = (args: string[]) => runLabCommand(registerBenchCommand, args);

describe('npm run lab -- bench crawl', () => {
  it('benchmarks strategies on a DocWeb topic and writes the report, one line per finished run', async () => {
    const out = join(fx.root, 'bench-out');
    const text = await run([
      'bench',
      'crawl',
      '--topic',
      join(fx.topicsDir, 'hardware.yaml'),
      '--cache',
      fx.cacheDir,
      '--strategies',
      'bfs,random',
      '--pages',
      '20',
      '--runs',
      '2',
      '--domain-limit',
      'none,5',
      '--out',
      out,
    ]);
    expect(text).toMatch(
      /crawl bench hardware: 2 strategies x 2 domain limits x 2 runs = 8 runs of 20 pages on DocWeb: 14 pages/,
    );
    expect(text.match(/^\[\d\/8\] /gm)).toHaveLength(8);
    expect(text).toMatch(/\[1\/8\] bfs run 0 \(https:\/\/hw\.example\/drivers\/usb\.html\): \d+ pages/);
    expect(text).toContain(`8 runs (8 new); report: ${out}/report.md`);
    const report = readFileSync(join(out, 'report.md'), 'utf8');
    expect(report).toMatch(/\| bfs \| \S/);
    expect(report).toMatch(/\| random_5 \| \S/);
    expect(existsSync(join(out, 'pareto.svg'))).toBe(true);
    // The fixture's hardware pages are the drivers/ folder: the seed itself is relevant.
    const runs = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')).runs as { relevant: number }[];
    expect(runs.every((r) => r.relevant >= 1)).toBe(true);
  });

  it('names an unknown strategy and lists the registered ones', async () => {
    await expect(
      run(['bench', 'crawl', '--topic', join(fx.topicsDir, 'hardware.yaml'), '--strategies', 'bfs,nope']),
    ).rejects.toThrow(/strategies: unknown strategy "nope"; registered: bfs, random, best-first/);
  });

  it('keeps the Double DQN overrides of a strategy spec together when splitting --strategies', () => {
    expect(splitStrategySpecs('bfs, tres:gamma=0.5,learningRate=0.001,random')).toEqual([
      'bfs',
      'tres:gamma=0.5,learningRate=0.001',
      'random',
    ]);
  });

  it('checks a strategy spec before the first run, naming the bad override', async () => {
    await expect(
      run([
        'bench',
        'crawl',
        '--topic',
        join(fx.topicsDir, 'hardware.yaml'),
        '--strategies',
        'tres:gama=0.5',
      ]),
    ).rejects.toThrow(
      /strategies: strategy "tres:gama=0\.5": "tres" has no setting "gama"; it takes gamma, /,
    );
    await expect(
      run([
        'bench',
        'crawl',
        '--topic',
        join(fx.topicsDir, 'hardware.yaml'),
        '--strategies',
        'bfs:gamma=0.5',
      ]),
    ).rejects.toThrow(
      /strategies: strategy "bfs:gamma=0\.5": "bfs" has no setting "gamma"; it has no settings/,
    );
  });

  it('names a bad domain limit', async () => {
    await expect(
      run(['bench', 'crawl', '--topic', join(fx.topicsDir, 'hardware.yaml'), '--domain-limit', 'none,2_5']),
    ).rejects.toThrow(/domainLimits: in "2_5" the floor 5 is above the start 2/);
  });
});
