import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../common/index.js';
import { readWordList } from './word-list-file.js';

const work = tempDir('tres-words-');

describe('readWordList', () => {
  it('reads one entry per line, skipping blank lines and comments', () => {
    const file = join(work, 'k.txt');
    writeFileSync(file, '# seeds\nfootball\n\n  ice hockey \n');
    expect(readWordList(file, 'keywords')).toEqual(['football', 'ice hockey']);
  });
  it('names a missing or empty file', () => {
    expect(() => readWordList(join(work, 'nope.txt'), 'keywords')).toThrow(
      /keywords file .*nope\.txt cannot be read/,
    );
    const empty = join(work, 'empty.txt');
    writeFileSync(empty, '# nothing\n');
    expect(() => readWordList(empty, 'keyphrases')).toThrow(ConfigError);
  });
});
