/** The `apprentice` entry of the strategy registry. */
import { defineStrategy } from '../strategy-entry.js';
import { APPRENTICE_ALIASES, APPRENTICE_SETTINGS } from './apprentice-config.js';
import { ApprenticeStrategy } from './apprentice-strategy.js';

export const APPRENTICE_ENTRY = defineStrategy({
  name: 'apprentice',
  description:
    'best-first critic plus a naive Bayes apprentice on <token, DOM offset> link features (Chakrabarti et al. 2002)',
  settings: APPRENTICE_SETTINGS,
  aliases: APPRENTICE_ALIASES,
  create: (ctx, settings) =>
    new ApprenticeStrategy({ overrides: settings, ...(ctx.name ? { name: ctx.name } : {}) }),
});
