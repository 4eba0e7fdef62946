/** The `ache` entry of the strategy registry. */
import { defineStrategy } from '../strategy-entry.js';
import { ACHE_SETTINGS } from './ache-config.js';
import { AcheStrategy } from './ache-strategy.js';

export const ACHE_ENTRY = defineStrategy({
  name: 'ache',
  description:
    'ACHE-like: best-first, then a link classifier (SVM on URL/anchor/around words) retrained every 500 pages rescoring the frontier',
  settings: ACHE_SETTINGS,
  aliases: { learn: { to: 'isLearning', values: { 0: false, 1: true } } },
  create: (ctx, settings) =>
    new AcheStrategy({ rng: ctx.rng, overrides: settings, ...(ctx.name ? { name: ctx.name } : {}) }),
});
