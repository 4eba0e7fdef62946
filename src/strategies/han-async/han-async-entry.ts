/** The `han-async` entry of the strategy registry. */
import { KeywordSet } from '../../text/index.js';
import { defineStrategy } from '../strategy-entry.js';
import { HAN_ASYNC_SETTINGS, HanAsyncStrategy } from './han-async-strategy.js';

export const HAN_ASYNC_ENTRY = defineStrategy({
  name: 'han-async',
  description:
    'Han et al. (Async): linear SARSA on bucketed path and cosine-relevance features, outlinks scored once, best-first',
  settings: HAN_ASYNC_SETTINGS,
  aliases: { learn: { to: 'isLearning', values: { 0: false, 1: true } } },
  create: (ctx, settings) =>
    new HanAsyncStrategy({
      rng: ctx.rng,
      keywords: ctx.keywords ?? new KeywordSet([]),
      overrides: settings,
      ...(ctx.name ? { name: ctx.name } : {}),
    }),
});
