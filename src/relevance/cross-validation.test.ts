import { describe, expect, it } from 'vitest';
import { crossValidate, formatTable1 } from './cross-validation.js';
import { createProgressBar } from './progress.js';
import { twoTopicCorpus } from './test-fixtures.js';

describe('crossValidate', () => {
  it('evaluates several models on the same stratified folds and prints the Table-1 layout', async () => {
    const docs = twoTopicCorpus(15, 45, 'cv');
    const folds: string[] = [];
    const results = await crossValidate(docs, {
      models: ['nb', 'svm'],
      folds: 3,
      config: { seed: 'cv' },
      onFold: (f) => folds.push(`${f.model}${f.fold}`),
    });
    expect(folds).toEqual(['nb1', 'nb2', 'nb3', 'svm1', 'svm2', 'svm3']);
    expect(results.map((r) => r.model)).toEqual(['nb', 'svm']);
    for (const r of results) {
      expect(r.perFold.length).toBe(3);
      expect(r.mean.macroF1).toBeGreaterThan(0.8);
      expect(r.pagesPerSec).toBeGreaterThan(0);
    }
    const table = formatTable1(results, 'two topics');
    expect(table).toContain('| Classifier (two topics) | Precision | Recall | F-macro |');
    expect(table).toContain('Naive Bayes');
  });
});

describe('createProgressBar', () => {
  it('prints one line per epoch when not on a terminal', () => {
    const out: string[] = [];
    const bar = createProgressBar({ write: (s: string) => out.push(s), isTTY: false }, 10);
    bar({ model: 'svm', epoch: 1, maxEpochs: 2, batch: 1, batches: 4 });
    bar({ model: 'svm', epoch: 1, maxEpochs: 2, trainLoss: 0.5, valLoss: 0.25, isBest: true });
    expect(out).toEqual(['[#####-----] svm epoch 1/2 loss 0.5000 val 0.2500 *\n']);
  });
});
