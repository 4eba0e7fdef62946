/**
 * Word lists of a synthetic web: one vocabulary per topic (deterministic pseudo-words, or real
 * words given by the user), a common vocabulary shared by all topics (English function words,
 * then pseudo-words), each topic's keywords (the words of its name) and generic anchor texts.
 * Words are ranked: draws favour low ranks (Zipf), as word frequencies do in real text.
 */
import { createRng, type Rng } from '../../common/index.js';
import type { SyntheticWebOptions } from './synthetic-options.js';

/** The word lists of one synthetic web. */
export interface Vocabulary {
  /** Words of each topic, by topic index then rank. Disjoint across topics and from `commonWords`. */
  topicWords: string[][];
  /** Keywords of each topic: the lowercased words of its name. */
  keywords: string[][];
  /** Words of every topic's text, most frequent first. */
  commonWords: string[];
  /** Anchor texts that say nothing about the target. */
  genericAnchors: string[];
}

/** Frequent English words that open the common vocabulary (so stopword lists have something to do). */
const FUNCTION_WORDS = (
  'the of and to in is that for it as with on by this are be at from or an was which can has have not ' +
  'more also their its all one other new about into when how these some use used first may most many only ' +
  'over such than then there they we you our'
).split(' ');

const GENERIC_ANCHORS = [
  'click here',
  'here',
  'more',
  'read more',
  'this page',
  'link',
  'next',
  'details',
  'see also',
];

const ONSETS = 'b c d f g h k l m n p r s t v z br cr dr fr gr kl pl st tr sh ch th'.split(' ');
const VOWELS = 'a e i o u a e i o ai ea ou'.split(' ');
const CODAS = ['', '', '', '', 'n', 'r', 's', 'l', 'm', 'x', 'nd', 'rt'];

/** A pronounceable pseudo-word of 2 or 3 syllables. */
function pseudoWord(rng: Rng): string {
  const syllables = rng.next() < 0.6 ? 2 : 3;
  let word = '';
  for (let s = 0; s < syllables; s++) word += rng.pick(ONSETS) + (rng.pick(VOWELS) as string);
  return word + (rng.pick(CODAS) as string);
}

/** Lowercased words of a topic name with at least two letters ("computer hardware" -> computer, hardware). */
export function keywordsOf(topic: string): string[] {
  return topic
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 2);
}

function pseudoWords(rng: Rng, count: number, taken: Set<string>): string[] {
  const words: string[] = [];
  while (words.length < count) {
    const word = pseudoWord(rng);
    if (taken.has(word)) continue;
    taken.add(word);
    words.push(word);
  }
  return words;
}

/** Builds the vocabulary of a web from its (resolved) options. Deterministic in `seed`. */
export function buildVocabulary(o: SyntheticWebOptions): Vocabulary {
  const rng = createRng(`${o.seed}`).fork('vocabulary');
  const keywords = o.topics.map(keywordsOf);
  const taken = new Set<string>([
    ...FUNCTION_WORDS,
    ...keywords.flat(),
    ...GENERIC_ANCHORS.join(' ').split(' '),
  ]);
  const topicWords = o.topics.map((topic, t) => {
    const given = o.topicVocabularies[topic];
    if (!given) return pseudoWords(rng.fork(`topic-${t}`), o.vocabularySize, taken);
    const words = [...new Set(given.map((w) => w.toLowerCase()))].filter((w) => /^[a-z0-9'-]+$/.test(w));
    const own = words.filter((w) => !taken.has(w));
    for (const w of own) taken.add(w);
    return own.length > 0 ? own : pseudoWords(rng.fork(`topic-${t}`), o.vocabularySize, taken);
  });
  const commonWords = [...FUNCTION_WORDS, ...pseudoWords(rng.fork('common'), o.commonVocabularySize, taken)];
  return { topicWords, keywords, commonWords, genericAnchors: GENERIC_ANCHORS };
}
