import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { describe, expect, it } from 'vitest';
import { readTrainingRecord } from './training-record.js';

const dir = tempDir('tres-record-');

describe('training record of a model folder', () => {
  it('gives the model kind, its documents as absolute paths and its expanded keywords', () => {
    const model = join(dir, 'with-record');
    mkdirSync(model);
    writeFileSync(
      join(model, 'training.json'),
      JSON.stringify({
        model: 'svm',
        dataset: { relevantDir: '../rel', jsonlFiles: ['/data/a.jsonl'] },
        keywords: { keywords: ['cpu'], keyphrases: ['graphics card'], shortcut1: 2 },
      }),
    );
    expect(readTrainingRecord(model)).toEqual({
      model: 'svm',
      dataset: { relevantDir: join(dir, 'rel'), jsonlFiles: ['/data/a.jsonl'] },
      topic: { keywords: ['cpu'], keyphrases: ['graphics card'], isExpanded: true },
    });
  });

  it('falls back to the kind in model.json when tres train left no record', () => {
    const model = join(dir, 'bare');
    mkdirSync(model);
    writeFileSync(join(model, 'model.json'), JSON.stringify({ name: 'nb' }));
    expect(readTrainingRecord(model)).toEqual({ model: 'nb' });
    expect(readTrainingRecord(join(dir, 'missing'))).toBeUndefined();
  });
});
