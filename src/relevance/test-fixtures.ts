/**
 * Small labelled corpora for the tests of this room (not part of the public API): a seeded,
 * separable two-topic task whose words all have GloVe vectors.
 */
import { createRng } from '../common/index.js';
import type { LabeledDocument } from './types.js';

const SPORT =
  'football soccer league goal match player team coach stadium season striker hockey tennis rugby'.split(' ');
const FOOD =
  'recipe cooking soup bread butter sauce kitchen flour oven dinner salad garlic cheese pasta'.split(' ');
const COMMON = 'people world time year city news report new great small local history week online'.split(' ');

/**
 * `relevant` sport documents and `irrelevant` food documents of `words` words each, with some
 * shared vocabulary (so the task is separable but not trivial for every model).
 */
export function twoTopicCorpus(
  relevant: number,
  irrelevant: number,
  seed = 'fixture',
  words = 30,
): LabeledDocument[] {
  const rng = createRng(seed);
  const make = (label: 0 | 1, i: number): LabeledDocument => {
    const topic = label === 1 ? SPORT : FOOD;
    const tokens: string[] = [];
    for (let w = 0; w < words; w++) {
      const r = rng.next();
      const pool = r < 0.4 ? topic : r < 0.5 ? (label === 1 ? FOOD : SPORT) : COMMON;
      tokens.push(rng.pick(pool) as string);
    }
    const host = label === 1 ? 'sportsdaily' : 'kitchenworld';
    return {
      url: `http://${host}.example/page${i}`,
      title: '',
      text: tokens.join(' '),
      label,
      source: `${label}/${i}`,
    };
  };
  const docs: LabeledDocument[] = [];
  for (let i = 0; i < relevant; i++) docs.push(make(1, i));
  for (let i = 0; i < irrelevant; i++) docs.push(make(0, i));
  return docs;
}

/** Seed keywords of the sport topic. */
export const SPORT_SEEDS = ['football', 'soccer', 'hockey'];
