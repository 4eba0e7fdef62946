/** The `coverage` entry of the strategy registry. */
import { defineStrategy } from '../strategy-entry.js';
import { COVERAGE_ALIASES, COVERAGE_SETTINGS } from './coverage-config.js';
import { CoverageStrategy } from './coverage-strategy.js';

export const COVERAGE_ENTRY = defineStrategy({
  name: 'coverage',
  description:
    'relevant pages from many sites: P(relevant) from an online link model, hub and site yields; value = p * (1 + newSiteValue for a site with no relevant page yet)',
  settings: COVERAGE_SETTINGS,
  aliases: COVERAGE_ALIASES,
  create: (ctx, settings) =>
    new CoverageStrategy({
      overrides: settings,
      ...(ctx.name ? { name: ctx.name } : {}),
      isKeywordJudged: ctx.isKeywordJudged === true,
    }),
});
