import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeywordJudge } from './keyword-judge.js';

const KEYWORDS = ['usb', 'pci', 'firmware', 'c', 'été', 'x86'];

/** The count as the judge first wrote it: every word of the lowercased text, by the regex. */
function referenceCount(text: string): number {
  const keywords = new Set(KEYWORDS.map((k) => k.toLowerCase()));
  let n = 0;
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) if (keywords.has(m[0])) n++;
  return n;
}

/** P(relevant) of a page of `text` (no title) as the reference count gives it. */
function referencePage(text: string): number {
  const n = referenceCount(text);
  return Math.fround(n / (n + 3));
}

describe('KeywordJudge', () => {
  const judge = new KeywordJudge({ keywords: KEYWORDS });

  it('counts keywords among the words of a page, titles twice', async () => {
    const [p] = await judge.scorePages([
      { url: 'http://x/', title: 'USB', text: 'usb-PCI; firmwares. C c++' },
    ]);
    // title "usb" twice, text usb, pci, c, c: 6 occurrences
    expect(p).toBeCloseTo(6 / 9, 6);
  });

  it('scores an anchor by its text and the words of its URL', async () => {
    const [a, b] = await judge.scoreAnchors([
      { url: 'http://x.org/usb/pci.html', anchorText: 'Firmware' },
      { url: 'http://x.org/a', anchorText: 'nothing' },
    ]);
    expect(a).toBeCloseTo(3 / 4, 6);
    expect(b).toBe(0);
  });

  it('counts as the regex over every word does, ASCII or not', async () => {
    const word = fc.constantFrom(
      ...KEYWORDS,
      'USB',
      'Été',
      'ÉTÉ',
      'usbx',
      'x',
      '',
      '86',
      'İ',
      'ǅ',
      '𝒳',
      'naïve',
    );
    const gap = fc.constantFrom(' ', '-', '.', '/', '\n', '_', '', 'é', '\u00a0', '😀');
    const text = fc.array(fc.tuple(word, gap), { maxLength: 30 }).map((parts) => parts.flat().join(''));
    await fc.assert(
      fc.asyncProperty(fc.oneof(text, fc.string(), fc.string({ unit: 'grapheme' })), async (t) => {
        const [p] = await judge.scorePages([{ url: 'http://x/', title: '', text: t }]);
        expect(p).toBe(referencePage(t));
      }),
      { seed: 25, numRuns: 2000 },
    );
  });

  it('counts nothing without keywords', async () => {
    const [p] = await new KeywordJudge({ keywords: [] }).scorePages([
      { url: 'u', title: 'usb', text: 'usb' },
    ]);
    expect(p).toBe(0);
  });
});
