import { join } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../common/index.js';
import { loadWordVectors } from '../text/index.js';
import { loadModel } from './load-model.js';
import { confusion, metricsOf } from './metrics.js';
import { SPORT_SEEDS, twoTopicCorpus } from './test-fixtures.js';
import { trainModel } from './training.js';
import type { ModelName } from './types.js';

const work = tempDir('tres-linear-');

const train = twoTopicCorpus(30, 90, 'train');
const test = twoTopicCorpus(20, 40, 'test');
const anchors = [
  { url: 'http://sportsdaily.example/league', anchorText: 'football results' },
  { url: 'http://kitchenworld.example/soup', anchorText: 'garlic bread recipe' },
];

describe.each(['nb', 'svm', 'fast'] as ModelName[])('%s model', (name) => {
  it('learns the two-topic task and scores identically after save and load', async () => {
    const vectors = await loadWordVectors();
    const { model } = await trainModel(name, train, {
      config: { seed: 's' },
      vectors,
      topic: { keywords: SPORT_SEEDS },
    });
    const probs = await model.scorePages(test);
    expect(
      metricsOf(
        confusion(
          test.map((d) => d.label),
          probs,
        ),
      ).macroF1,
    ).toBeGreaterThan(0.9);
    const a = await model.scoreAnchors(anchors);
    expect(a[0]).toBeGreaterThan(a[1] as number);
    const dir = join(work, name);
    await model.save(dir);
    const loaded = await loadModel(dir, { vectors });
    expect(loaded.name).toBe(name);
    expect(Array.from(await loaded.scorePages(test))).toEqual(Array.from(probs));
    expect(Array.from(await loaded.scoreAnchors(anchors))).toEqual(Array.from(a));
  }, 60_000);

  it('trains the same model from the same seed', async () => {
    const vectors = await loadWordVectors();
    const opts = { config: { seed: 'same' }, vectors, topic: { keywords: SPORT_SEEDS } };
    const a = await (await trainModel(name, train, opts)).model.scorePages(test);
    const b = await (await trainModel(name, train, opts)).model.scorePages(test);
    expect(Array.from(b)).toEqual(Array.from(a));
  }, 60_000);
});

describe('trainModel', () => {
  it('refuses a dataset with one class', async () => {
    await expect(trainModel('nb', twoTopicCorpus(5, 0))).rejects.toThrow(ConfigError);
  });
  it('refuses a KwBiLSTM without keywords', async () => {
    await expect(trainModel('kwbilstm', train)).rejects.toThrow(/needs topic keywords/);
  });
  it('reports a damaged model folder by name', async () => {
    await expect(loadModel(join(work, 'missing'))).rejects.toThrow(/missing.*not a saved tres model/);
  });
});
