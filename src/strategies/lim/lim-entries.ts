/** The `lim-dfs` and `lim-q` entries of the strategy registry. */
import { KeywordSet } from '../../text/index.js';
import { defineStrategy, type StrategyContext } from '../strategy-entry.js';
import {
  LIM_ALIASES,
  LIM_DFS_SETTINGS,
  LIM_Q_SETTINGS,
  type LimLearner,
  type LimSettings,
  resolveLimConfig,
} from './lim-config.js';
import { LimStrategy } from './lim-strategy.js';

function lim(learner: LimLearner) {
  return (ctx: StrategyContext, settings: LimSettings) =>
    new LimStrategy({
      learner,
      rng: ctx.rng,
      keywords: ctx.keywords ?? new KeywordSet([]),
      overrides: settings,
      ...(ctx.wordVectors ? { wordVectors: ctx.wordVectors } : {}),
      ...(ctx.name ? { name: ctx.name } : {}),
    });
}

export const LIM_ENTRIES = [
  defineStrategy({
    name: 'lim-dfs',
    description:
      'Lim (2016): modified DFS with a per-host cap; parse/skip (follow outlinks or not) by policy iteration on 4 boolean features',
    settings: LIM_DFS_SETTINGS,
    aliases: LIM_ALIASES,
    needsWordVectors: true,
    check: (settings) => void resolveLimConfig('policy-iteration', settings),
    create: lim('policy-iteration'),
  }),
  defineStrategy({
    name: 'lim-q',
    description:
      'Lim\u2019s modified DFS with tabular Q-learning for parse/skip (the thesis\u2019 future work)',
    settings: LIM_Q_SETTINGS,
    aliases: LIM_ALIASES,
    needsWordVectors: true,
    check: (settings) => void resolveLimConfig('q-learning', settings),
    create: lim('q-learning'),
  }),
];
