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

  it('learns a label from the words it read when it scored the page, not only from what the question carries', async () => {
    // Two judges meet the same pages; the user answers about the same ten cooking pages, with no
    // text (a question carries only the beginning of a page). Only the first judge scored them.
    const met = (seed: string) => {
      const rng = createRng(seed);
      return Array.from({ length: 120 }, (_, i) =>
        page(
          i % 2 === 0 ? HARDWARE : COOKING,
          40,
          rng,
          i % 3 === 0 ? [] : ['hardware', 'hardware', 'hardware'],
        ),
      );
    };
    const pages = met('cold-start-answers');
    const answered = pages.filter((_, i) => i % 2 === 1 && i >= 80).slice(0, 10);
    const scoredThem = new ColdStartJudge({ keywords: ['hardware'], firstFitAtPages: 100, seed: 2 });
    const didNot = new ColdStartJudge({ keywords: ['hardware'], firstFitAtPages: 100, seed: 2 });
    for (const p of pages) await scoredThem.scorePages([p]);
    for (const p of met('other pages')) await didNot.scorePages([p]);
    for (const p of answered) {
      scoredThem.learn({ url: p.url, title: '', text: '' }, false);
      didNot.learn({ url: p.url, title: '', text: '' }, false);
    }
    const rng = createRng('more pages');
    for (let i = 0; i < 30; i++) {
      const more = page(HARDWARE, 40, rng, ['hardware', 'hardware', 'hardware']);
      await scoredThem.scorePages([more]);
      await didNot.scorePages([more]);
    }
    const loud = page(COOKING, 40, rng, ['hardware', 'hardware', 'hardware']);
    const [learnt] = await scoredThem.scorePages([loud]);
    const [unlearnt] = await didNot.scorePages([loud]);
    expect(learnt as number).toBeLessThan((unlearnt as number) - 0.1);
  });
});
