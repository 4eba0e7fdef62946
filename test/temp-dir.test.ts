import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { beforeEach, describe, expect, it } from 'vitest';

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

describe('tempDir in beforeEach', () => {
  const made: string[] = [];
  beforeEach(() => {
    made.push(tempDir('tres-temp-dir-each-'));
  });

  it('gives the test a folder of its own', () => {
    expect(made).toHaveLength(1);
    expect(existsSync(made[0] as string)).toBe(true);
  });

  it("removes the previous test's folder when that test ended", () => {
    expect(made).toHaveLength(2);
    expect(existsSync(made[0] as string)).toBe(false);
    expect(existsSync(made[1] as string)).toBe(true);
  });
});
