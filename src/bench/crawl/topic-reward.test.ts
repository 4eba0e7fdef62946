import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocweb } from '../../docweb/index.js';
import { type DocwebFixture, fixtureBuildOptions, makeDocwebFixture } from '../../docweb/test-fixture.js';
import { loadModel } from '../../relevance/index.js';
import { ensureTopicReward } from './topic-reward.js';

let fx: DocwebFixture;

beforeAll(async () => {
  fx = makeDocwebFixture();
  await buildDocweb(fixtureBuildOptions(fx));
});
afterAll(() => fx?.cleanup());

describe('ensureTopicReward', () => {
  it('samples the web and trains a model once, then reuses it; training.json says how', async () => {
    const lines: string[] = [];
    const options = {
      topicFile: join(fx.topicsDir, 'hardware.yaml'),
      cacheDir: fx.cacheDir,
      modelsDir: join(fx.root, 'models'),
      log: (line: string) => void lines.push(line),
    };
    const dir = await ensureTopicReward(options);
    expect(dir).toBe(join(fx.root, 'models', 'hardware-svm'));
    const training = JSON.parse(readFileSync(join(dir, 'training.json'), 'utf8'));
    expect(training.command).toMatch(
      /^train --model svm --out .*hardware-svm --relevant .*samples\/hardware\/relevant/,
    );
    expect(
      JSON.parse(readFileSync(join(fx.root, 'models', 'samples', 'hardware', 'sample.json'), 'utf8')),
    ).toMatchObject({
      draw: 'by-page',
      irrelevantFrom: 'all',
    });
    const model = await loadModel(dir);
    const [p] = await model.scorePages([
      { url: 'https://x.example/', title: 'USB', text: 'the device driver reads the sensor' },
    ]);
    expect(p).toBeGreaterThanOrEqual(0);
    const made = statSync(join(dir, 'model.json')).mtimeMs;
    const linesBefore = lines.length;
    expect(await ensureTopicReward(options)).toBe(dir);
    expect(statSync(join(dir, 'model.json')).mtimeMs).toBe(made);
    expect(lines.length).toBe(linesBefore);
  });
});
