/**
 * `tres train` and `tres evaluate` on a handful of documents: with one document per class the
 * command says it measured nothing and claims no figures; with 5 short relevant and 5 long
 * irrelevant documents the `nb` model tells them apart (additive smoothing alone called every
 * held-out document irrelevant, macro F1 33.3). The built CLI runs in this process.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../common/index.js';
import { runMain } from '../test-cli.js';

/** A pronounceable word for `i` (the tokenizer keeps letters only). */
function word(prefix: string, i: number): string {
  let s = prefix;
  for (let n = i + 1; n > 0; n = Math.floor(n / 95))
    s += 'bcdfghjklmnpqrstvwz'[n % 19]! + 'aeiou'[Math.floor(n / 19) % 5]!;
  return s;
}

describe('tres train and evaluate on a handful of documents', () => {
  const base = tempDir('tres-train-few-');
  beforeAll(() => {});

  /**
   * Writes 5 relevant documents of `relevantWords` words and 5 irrelevant ones of
   * `irrelevantWords`: both mostly words of one shared Zipf vocabulary, 10% words of their own
   * (the relevant documents share a topic; each irrelevant one has a topic of its own).
   */
  function corpus(
    name: string,
    relevantWords: number,
    irrelevantWords: number,
  ): { rel: string; irr: string } {
    const rng = createRng(`train-few/${name}`);
    // English function words first (the language check reads them), then made-up words.
    const english = 'the of and to in is for with on that this it as are be by from at or an'.split(' ');
    const shared = Array.from({ length: 3000 }, (_, i) => english[i] ?? word('', i));
    const cumulative: number[] = [];
    for (let i = 0; i < shared.length; i++) cumulative.push((cumulative[i - 1] ?? 0) + 1 / (i + 1));
    const total = cumulative.at(-1)!;
    const zipf = () => {
      const x = rng.next() * total;
      let i = 0;
      while ((cumulative[i] as number) < x) i++;
      return shared[i]!;
    };
    const doc = (n: number, own: string[]) =>
      Array.from({ length: n }, () =>
        rng.next() < 0.1 ? own[Math.floor(rng.next() * own.length)]! : zipf(),
      ).join(' ');
    const rel = join(base, name, 'relevant');
    const irr = join(base, name, 'irrelevant');
    mkdirSync(rel, { recursive: true });
    mkdirSync(irr, { recursive: true });
    const topic = Array.from({ length: 50 }, (_, i) => word('hard', i));
    for (let i = 0; i < 5; i++) {
      writeFileSync(join(rel, `${i}.txt`), doc(relevantWords, topic));
      const own = Array.from({ length: 300 }, (_, k) => word(`top${'xyzqj'[i]}`, k));
      writeFileSync(join(irr, `${i}.txt`), doc(irrelevantWords, own));
    }
    return { rel, irr };
  }

  it('with one document per class says nothing was measured and claims no figures', async () => {
    const rel = join(base, 'one', 'relevant');
    const irr = join(base, 'one', 'irrelevant');
    mkdirSync(rel, { recursive: true });
    mkdirSync(irr, { recursive: true });
    writeFileSync(join(rel, 'a.txt'), 'cpu gpu motherboard socket chipset memory');
    writeFileSync(join(irr, 'b.txt'), 'flour sugar butter oven bake bread');
    const run = await runMain([
      'train',
      '--relevant',
      rel,
      '--irrelevant',
      irr,
      '--out',
      join(base, 'one', 'm'),
    ]);
    expect(run.code).toBe(0);
    const said = run.stdout + run.stderr;
    expect(said).toContain(
      'none can be held out (each class needs at least 3), so nothing says how good this model is',
    );
    expect(said).toContain(
      'only 1 relevant document: the model was saved, but it learned from too few examples',
    );
    expect(said).not.toContain('figures above');
  });

  it('nb tells 5 short relevant from 5 long irrelevant documents', { timeout: 60_000 }, async () => {
    const { rel, irr } = corpus('lengths', 200, 3000);
    const run = await runMain([
      'evaluate',
      '--relevant',
      rel,
      '--irrelevant',
      irr,
      '--models',
      'nb',
      '--folds',
      '5',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const row = /\| Naive Bayes \| ([\d.]+) ± [\d.]+ \| ([\d.]+) ± [\d.]+ \| ([\d.]+) ±/.exec(run.stdout);
    expect(row, run.stdout).not.toBeNull();
    expect(Number(row![3])).toBeGreaterThan(60); // macro F1: 33.3 calls every document one class
  });
});
