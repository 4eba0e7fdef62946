import { join } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { describe, expect, it } from 'vitest';
import { loadWordVectors } from '../text/index.js';
import type { BiLstmModel } from './bilstm-model.js';
import { pageExamples } from './features.js';
import { loadModel } from './load-model.js';
import { confusion, metricsOf } from './metrics.js';
import { SPORT_SEEDS, twoTopicCorpus } from './test-fixtures.js';
import { trainModel } from './training.js';

const work = tempDir('tres-bilstm-');

// Tiny network, few epochs: the test shows learning and exact save/load, not accuracy.
// A tenth held out (the default is a fifth): on 120 documents the six epochs need every example.
const config = {
  seed: 'test',
  validationFraction: 0.1,
  bilstm: {
    units: 8,
    denseUnits: 8,
    keywordDenseUnits: 8,
    maxLen: 20,
    maxEpochs: 6,
    patience: 2,
    learningRate: 0.01,
  },
};

describe('KwBiLSTM', () => {
  it('learns a small separable task and scores identically after a save/load round trip', async () => {
    const vectors = await loadWordVectors();
    const train = twoTopicCorpus(40, 80, 'train', 20);
    const test = twoTopicCorpus(20, 20, 'test', 20);
    const started = performance.now();
    const { model, topic } = await trainModel('kwbilstm', train, {
      config,
      vectors,
      topic: { keywords: SPORT_SEEDS },
    });
    console.info(`kwbilstm: trained on 120 docs in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    expect(topic?.set.keywords).toEqual(expect.arrayContaining(SPORT_SEEDS));
    const probs = await model.scorePages(test);
    const m = metricsOf(
      confusion(
        test.map((d) => d.label),
        probs,
      ),
    );
    expect(m.macroF1).toBeGreaterThan(0.9);

    const dir = join(work, 'kw');
    await model.save(dir);
    const loaded = await loadModel(dir, { vectors });
    expect(loaded.name).toBe('kwbilstm');
    expect(Array.from(await loaded.scorePages(test))).toEqual(Array.from(probs));
    const anchors = [
      { url: 'http://sportsdaily.example/x', anchorText: 'football league' },
      { url: 'http://kitchenworld.example/y', anchorText: 'bread recipe' },
    ];
    const a1 = await model.scoreAnchors(anchors);
    expect(Array.from(await loaded.scoreAnchors(anchors))).toEqual(Array.from(a1));
    expect(a1[0]).toBeGreaterThan(a1[1] as number);
    model.dispose();
    loaded.dispose();
  }, 120_000);

  it('scores by the plain forward pass as the TensorFlow.js network does, padded batches included', async () => {
    const vectors = await loadWordVectors();
    const train = twoTopicCorpus(10, 20, 'plain', 10);
    const { model } = await trainModel('kwbilstm', train, {
      config: { ...config, bilstm: { ...config.bilstm, maxEpochs: 2 } },
      vectors,
      topic: { keywords: SPORT_SEEDS },
    });
    const bilstm = model as unknown as BiLstmModel;
    const examples = pageExamples([
      ...twoTopicCorpus(3, 3, 'plain-test', 15),
      { url: 'http://sport.example/football', title: 'Match', text: 'football' },
      { url: '', title: '', text: 'zzqxv' }, // no word with a vector: an empty sequence
    ]);
    const plain = await bilstm.scoreExamples(examples);
    const reference = await bilstm.scoreWithNetwork(examples);
    for (let i = 0; i < examples.length; i++) expect(plain[i]).toBeCloseTo(reference[i] as number, 5);
    model.dispose();
  }, 60_000);

  it('gives the same score to a page alone and padded in a batch with longer pages', async () => {
    const vectors = await loadWordVectors();
    const train = twoTopicCorpus(10, 20, 'pad', 10);
    const { model } = await trainModel('bilstm', train, {
      config: { ...config, bilstm: { ...config.bilstm, maxEpochs: 1 } },
      vectors,
    });
    const short = { url: '', title: '', text: 'football match' };
    const long = { url: '', title: '', text: 'soup '.repeat(15) };
    const alone = await model.scorePages([short]);
    const batched = await model.scorePages([short, long]);
    expect(batched[0]).toBeCloseTo(alone[0] as number, 5);
    model.dispose();
  }, 60_000);

  it('trains the same model from the same seed', async () => {
    const vectors = await loadWordVectors();
    const train = twoTopicCorpus(10, 20, 'seed', 10);
    const small = { ...config, bilstm: { ...config.bilstm, maxEpochs: 1 } };
    const a = await trainModel('bilstm', train, { config: small, vectors });
    const b = await trainModel('bilstm', train, { config: small, vectors });
    const c = await trainModel('bilstm', train, { config: { ...small, seed: 'other' }, vectors });
    const pa = await a.model.scorePages(train);
    expect(Array.from(await b.model.scorePages(train))).toEqual(Array.from(pa));
    expect(Array.from(await c.model.scorePages(train))).not.toEqual(Array.from(pa));
    for (const m of [a, b, c]) m.model.dispose();
  }, 60_000);
});
