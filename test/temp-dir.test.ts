import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { describe, expect, it } from 'vitest';

describe('tempDir', () => {
  const forTheFile = tempDir('tres-temp-dir-file-');
  let madeInATest = '';

  it('makes a fresh folder inside a test', () => {
    madeInATest = tempDir('tres-temp-dir-test-');
    writeFileSync(join(madeInATest, 'a.txt'), 'a');
    expect(existsSync(join(madeInATest, 'a.txt'))).toBe(true);
    expect(madeInATest).not.toBe(forTheFile);
  });

  it('removes a folder made in a test when that test ends, with what is in it', () => {
    expect(madeInATest).not.toBe('');
    expect(existsSync(madeInATest)).toBe(false);
  });

  it('keeps a folder made while collecting until the file is done', () => {
    expect(existsSync(forTheFile)).toBe(true);
  });
});
