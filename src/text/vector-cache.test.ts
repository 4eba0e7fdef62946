import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../common/index.js';
import {
  buildWordVectorCache,
  cacheFiles,
  defaultCacheDir,
  loadWordVectors,
  readWordVectorCache,
} from './vector-cache.js';

const work = tempDir('tres-vectors-');

/** A small file in the wink layout, with words the tokenizer cannot produce. */
function writeFixture(path: string): void {
  const vectors = {
    the: [0.5, -1.25, 2e-3, 2.4, 0],
    ',': [1, 1, 1, 1.7, 1],
    Paris: [1, 2, 3, 3.7, 2],
    '"': [1, 2, 3, 3.7, 3],
    cat: [-1.5e1, 0, 1, 15.03, 4],
  };
  const body = JSON.stringify({
    precision: 8,
    l2NormIndex: 3,
    wordIndex: 4,
    size: 5,
    dimensions: 3,
    words: Object.keys(vectors),
    vectors,
    unkVector: [0, 0, 0, 0, -1],
  });
  writeFileSync(path, body);
}

describe('word-vector cache', () => {
  it('converts the wink JSON by streaming, keeping only tokenizer words', () => {
    const source = join(work, 'fixture.json');
    writeFixture(source);
    const dir = join(work, 'cache-a');
    const built = buildWordVectorCache({ cacheDir: dir, sourcePath: source });
    expect(built.words).toBe(2);
    const v = readWordVectorCache(dir);
    expect(v?.words).toEqual(['the', 'cat']);
    expect(Array.from(v?.get('the') ?? [])).toEqual([0.5, -1.25, Math.fround(2e-3)]);
    expect(Array.from(v?.get('cat') ?? [])).toEqual([-15, 0, 1]);
    expect(v?.norms[1]).toBeCloseTo(Math.sqrt(226));
    // Atomic writes leave no temporary files behind.
    expect(readdirSync(dir).sort()).toEqual([
      'word-vectors-sg100d-v1.bin',
      'word-vectors-sg100d-v1.vocab.txt',
    ]);
  });

  it('reports a damaged cache with its path', () => {
    const source = join(work, 'fixture.json');
    writeFixture(source);
    const dir = join(work, 'cache-b');
    buildWordVectorCache({ cacheDir: dir, sourcePath: source });
    writeFileSync(cacheFiles(dir).bin, Buffer.alloc(40));
    expect(() => readWordVectorCache(dir)).toThrow(ConfigError);
    expect(() => readWordVectorCache(dir)).toThrow(/word-vectors-sg100d-v1\.bin/);
  });

  it('builds a missing cache on first load, once, and removes its lock', async () => {
    const source = join(work, 'fixture.json');
    writeFixture(source);
    const dir = join(work, 'cache-c');
    const [a, b] = await Promise.all([
      loadWordVectors({ cacheDir: dir, sourcePath: source }),
      loadWordVectors({ cacheDir: dir, sourcePath: source }),
    ]);
    expect(a.words).toEqual(['the', 'cat']);
    expect(b.size).toBe(2);
    expect(existsSync(cacheFiles(dir).lock)).toBe(false);
  });

  it('returns undefined when no cache exists', () => {
    expect(readWordVectorCache(join(work, 'none'))).toBeUndefined();
  });

  it('builds the real cache once and loads it back from the binary cache', async () => {
    // Builds on first use on this machine (about 6 s), then reuses it.
    const vectors = await loadWordVectors();
    expect(vectors.size).toBeGreaterThan(300_000);
    expect(vectors.dim).toBe(100);
    const started = performance.now();
    const again = readWordVectorCache(defaultCacheDir());
    const ms = performance.now() - started;
    console.info(`word-vector cache load: ${ms.toFixed(0)} ms for ${again?.size} words`);
    expect(again?.size).toBe(vectors.size);
    // The load time is printed, not asserted: speed belongs to benchmarks, and a loaded machine
    // (CI, parallel test files) made a timed assertion flaky.
    expect(vectors.nearest('football', 10).map((n) => n.word)).toContain('soccer');
    expect(existsSync(cacheFiles(defaultCacheDir()).lock)).toBe(false);
  }, 120_000);
});
