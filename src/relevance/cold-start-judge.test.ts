import { describe, expect, it } from 'vitest';
import { createRng } from '../common/index.js';
import { ColdStartJudge } from './cold-start-judge.js';

const HARDWARE = ['motherboard', 'chipset', 'soldering', 'voltage', 'firmware', 'pinout', 'jumper', 'socket'];
const COOKING = ['recipe', 'oven', 'flour', 'simmer', 'garlic', 'butter', 'onion', 'saucepan'];

/** A page of `count` words drawn from `words`, plus the given extra words. */
function page(words: string[], count: number, rng: ReturnType<typeof createRng>, extra: string[] = []) {
  const text = [...Array.from({ length: count }, () => words[rng.int(words.length)] as string), ...extra];
  return { url: `http://x.test/${rng.int(1e9)}`, title: '', text: text.join(' ') };
}

describe('ColdStartJudge', () => {
  it('judges by keywords until its first fit, then by the words that come with them', async () => {
    const rng = createRng('cold-start-test');
    const judge = new ColdStartJudge({ keywords: ['hardware'], firstFitAtPages: 200, seed: 1 });
    // A topical page without the keyword, and a cooking page that says "hardware" three times.
    const quiet = page(HARDWARE, 40, rng);
    const loud = page(COOKING, 40, rng, ['hardware', 'hardware', 'hardware']);
    const before = await judge.scorePages([quiet, loud]);
    expect(before[0]).toBe(0);
    expect(before[1]).toBeCloseTo(0.5);
    // What a crawl meets: hardware pages, most of them naming the keyword, and cooking pages.
    for (let i = 0; i < 200; i++) {
      const isHardware = i % 2 === 0;
      const extra = isHardware && i % 6 !== 0 ? ['hardware', 'hardware', 'hardware'] : [];
      await judge.scorePages([page(isHardware ? HARDWARE : COOKING, 40, rng, extra)]);
    }
    expect(judge.stats().fits).toBe(1);
    const after = await judge.scorePages([quiet, loud]);
    expect(after[0]).toBeGreaterThan(0.5);
    expect(after[1]).toBeLessThan(0.5);
  });

  it('with learning off stays the keyword judge', async () => {
    const rng = createRng('cold-start-off');
    const judge = new ColdStartJudge({ keywords: ['hardware'], firstFitAtPages: false });
    for (let i = 0; i < 150; i++) await judge.scorePages([page(HARDWARE, 20, rng, ['hardware'])]);
    expect(judge.stats().fits).toBe(0);
    const [p] = await judge.scorePages([page(COOKING, 20, rng, ['hardware', 'hardware', 'hardware'])]);
    expect(p).toBeCloseTo(0.5);
  });

  it("learns a label from the words it read when it scored the page, and trusts the keyword labels as far as the user's labels agree with them", async () => {
    const rng = createRng('cold-start-answers');
    const judge = new ColdStartJudge({ keywords: ['hardware'], firstFitAtPages: 100, seed: 2 });
    // Every page names the keyword: the keyword labels alone cannot tell the topics apart.
    const met: { url: string; title: string; text: string; isHardware: boolean }[] = [];
    for (let i = 0; i < 100; i++) {
      const isHardware = i % 2 === 0;
      const p = page(isHardware ? HARDWARE : COOKING, 40, rng, ['hardware', 'hardware', 'hardware']);
      met.push({ ...p, isHardware });
      await judge.scorePages([p]);
    }
    // The user answers about ten pages of each, and the question carries no text.
    for (const p of met.slice(80)) judge.learn({ url: p.url, title: '', text: '' }, p.isHardware);
    for (let i = 0; i < 30; i++)
      await judge.scorePages([
        page(i % 2 === 0 ? HARDWARE : COOKING, 40, rng, ['hardware', 'hardware', 'hardware']),
      ]);
    expect(judge.stats().fits).toBeGreaterThan(0);
    const [quiet, loud] = await judge.scorePages([
      page(HARDWARE, 40, rng),
      page(COOKING, 40, rng, ['hardware', 'hardware', 'hardware']),
    ]);
    expect(quiet).toBeGreaterThan(0.5);
    expect(loud).toBeLessThan(0.5);
  });
});
