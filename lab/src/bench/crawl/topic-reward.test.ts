import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadModel } from 'tres-crawler/internals';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocweb } from '../../docweb/index.js';
import { type DocwebFixture, fixtureBuildOptions, makeDocwebFixture } from '../../docweb/test-fixture.js';
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
      relevant: 1000,
      draw: 'mixed',
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

  it('trains again when the kept model was drawn another way (the recipe before the mixed draw)', async () => {
    const lines: string[] = [];
    const options = {
      topicFile: join(fx.topicsDir, 'hardware.yaml'),
      cacheDir: fx.cacheDir,
      modelsDir: join(fx.root, 'models-old'),
      log: (line: string) => void lines.push(line),
    };
    const dir = await ensureTopicReward(options);
    const sampleFile = join(fx.root, 'models-old', 'samples', 'hardware', 'sample.json');
    const sample = JSON.parse(readFileSync(sampleFile, 'utf8'));
    writeFileSync(sampleFile, JSON.stringify({ ...sample, relevant: 500, draw: undefined }));
    lines.length = 0;
    expect(await ensureTopicReward(options)).toBe(dir);
    expect(lines[0]).toMatch(
      /trained on 500 relevant pages drawn by-page; drawing 1000 mixed and training again/,
    );
    expect(JSON.parse(readFileSync(sampleFile, 'utf8'))).toMatchObject({ relevant: 1000, draw: 'mixed' });
  });
});
