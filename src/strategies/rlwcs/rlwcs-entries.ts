/** The `rlwcs` and `svm-links` entries of the strategy registry. */
import { defineStrategy } from '../strategy-entry.js';
import { RLWCS_ALIASES, RLWCS_SETTINGS, resolveRlwcsConfig, SVM_LINKS_SETTINGS } from './rlwcs-config.js';
import { RlwcsStrategy } from './rlwcs-strategy.js';

export const RLWCS_ENTRIES = [
  defineStrategy({
    name: 'rlwcs',
    description:
      'Q(lambda) picks per page which classifier (NN, SVM, NB, DT, vote) scores its outlinks (Partalas et al. 2008)',
    settings: RLWCS_SETTINGS,
    aliases: RLWCS_ALIASES,
    check: (settings) => void resolveRlwcsConfig('rlwcs', settings),
    create: (ctx, settings) =>
      new RlwcsStrategy({
        variant: 'rlwcs',
        rng: ctx.rng,
        overrides: settings,
        ...(ctx.name ? { name: ctx.name } : {}),
      }),
  }),
  defineStrategy({
    name: 'svm-links',
    description:
      'best-first on a linear SVM\u2019s score of each link\u2019s text (the RLwCS paper\u2019s baseline)',
    settings: SVM_LINKS_SETTINGS,
    aliases: { scoreLinks: RLWCS_ALIASES.scoreLinks },
    check: (settings) => void resolveRlwcsConfig('svm-links', settings),
    create: (ctx, settings) =>
      new RlwcsStrategy({
        variant: 'svm-links',
        rng: ctx.rng,
        overrides: settings,
        ...(ctx.name ? { name: ctx.name } : {}),
      }),
  }),
];
