/** Registry entries of the three queue baselines (no settings). */
import { QueueStrategy } from './queue-strategy.js';
import { defineStrategy } from './strategy-entry.js';

export const QUEUE_ENTRIES = [
  defineStrategy({
    name: 'bfs',
    description: 'breadth-first: first discovered, first fetched',
    settings: {},
    create: ({ rng }) => new QueueStrategy({ order: 'bfs', rng }),
  }),
  defineStrategy({
    name: 'random',
    description: 'a uniformly random frontier URL each step (the papers\u2019 Random baseline)',
    settings: {},
    create: ({ rng }) => new QueueStrategy({ order: 'random', rng }),
  }),
  defineStrategy({
    name: 'best-first',
    description: 'priority = relevance of the page the link was found on (Chakrabarti et al. baseline)',
    settings: {},
    create: ({ rng }) => new QueueStrategy({ order: 'best-first', rng }),
  }),
];
