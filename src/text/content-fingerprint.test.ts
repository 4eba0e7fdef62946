import { describe, expect, it } from 'vitest';
import { createRng } from '../common/index.js';
import { contentFingerprint, hammingDistance } from './content-fingerprint.js';

function randomText(seed: number, words: number): string {
  const rng = createRng(seed);
  const vocabulary = Array.from({ length: 2000 }, (_, i) => `word${i.toString(36)}`);
  return Array.from({ length: words }, () => vocabulary[Math.floor(rng.next() * vocabulary.length)]).join(
    ' ',
  );
}

describe('contentFingerprint', () => {
  it('gives the same exact hash to the same words whatever the case, spacing and punctuation', () => {
    const a = contentFingerprint('Install the  GPU driver.\nThen reboot!');
    const b = contentFingerprint('install the gpu driver -- then   reboot');
    expect(b.exact).toBe(a.exact);
    expect(b.simhash).toEqual(a.simhash);
    expect(contentFingerprint('install the cpu driver then reboot').exact).not.toBe(a.exact);
  });

  it('puts a long page with two words changed within 3 bits of the original', () => {
    const text = randomText(1, 3000);
    const words = text.split(' ');
    words[100] = 'changed';
    words[2500] = 'elsewhere';
    const bits = hammingDistance(
      contentFingerprint(text).simhash,
      contentFingerprint(words.join(' ')).simhash,
    );
    expect(bits).toBeLessThanOrEqual(3);
  });

  it('keeps unrelated pages of one vocabulary more than 3 bits apart', () => {
    const prints = Array.from({ length: 60 }, (_, i) => contentFingerprint(randomText(100 + i, 400)).simhash);
    let closest = 64;
    for (let i = 0; i < prints.length; i++)
      for (let j = i + 1; j < prints.length; j++)
        closest = Math.min(closest, hammingDistance(prints[i]!, prints[j]!));
    expect(closest).toBeGreaterThan(3);
  });

  it('counts differing bits over both 32-bit halves', () => {
    expect(hammingDistance([0, 0], [0, 0])).toBe(0);
    expect(hammingDistance([0xffffffff, 0], [0, 0])).toBe(32);
    expect(hammingDistance([0x80000001, 0x3], [0, 0x1])).toBe(3);
  });

  it('fingerprints an empty text without throwing', () => {
    expect(contentFingerprint('').exact).toMatch(/^[0-9a-f]{40}$/);
  });
});
