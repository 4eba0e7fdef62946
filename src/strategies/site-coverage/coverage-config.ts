/**
 * Every setting of the `coverage` strategy (issue 25): relevant pages from many relevant sites.
 * One setting is meant for users, {@link CoverageConfig.newSiteValue}; the others are fixed
 * defaults across topics (none was tuned to a topic or a seed) and exist for the ablation.
 */
import { ConfigError } from '../../common/errors.js';

export interface CoverageConfig {
  /**
   * lambda: how much a new relevant site is worth against one relevant page. A link's value is
   * p + lambda * p * [its site holds no judged-relevant page yet], p = P(target relevant).
   * 0: expected relevant pages only. @default 1
   */
  newSiteValue: number;
  /**
   * Give the link model the target site's yield (logit of judged-relevant pages per fetched page
   * of the site, Jeffreys prior) and an "unvisited site" indicator. false: sites' yields are not
   * used. @default true
   */
  isSiteYieldUsed: boolean;
  /**
   * Give the link model, for a link to another site, the hub yield (logit of the share of
   * judged-relevant targets among the off-site links followed so far from the parent page,
   * shrunk to that of the parent's whole site) and an "off-site" indicator. false: hubs are not
   * used. @default true
   */
  isHubUsed: boolean;
  /** Learn the word features (URL, anchor and context words) of links. false: none. @default true */
  isWordUsed: boolean;
  /**
   * Learn the link model online (one AdaGrad step per fetched link). false: it keeps its initial
   * weights, so the estimate is the parent page's P(relevant), as best-first's. @default true
   */
  isLinkLearning: boolean;
  /** AdaGrad step size of the link model. @default 0.05 */
  learningRate: number;
  /**
   * Fetched pages between two rescorings of the whole frontier (a queued link's value can rise
   * when its site's yield does; falls are caught when it is drawn). false: never. @default 250
   */
  rescoreEveryPages: number | false;
  /**
   * A drawn link whose value fell by more than this since it was queued goes back with its new
   * value instead of being fetched. @default 0.02
   */
  recheckTolerance: number;
}

/** Defaults of {@link CoverageConfig}. */
export const DEFAULT_COVERAGE_CONFIG: Readonly<CoverageConfig> = Object.freeze({
  newSiteValue: 1,
  isSiteYieldUsed: true,
  isHubUsed: true,
  isWordUsed: true,
  isLinkLearning: true,
  learningRate: 0.05,
  rescoreEveryPages: 250,
  recheckTolerance: 0.02,
});

/**
 * Settings a `coverage:key=value` spec may override. `rescoreEvery` takes 0 for false; `siteYield`,
 * `hubs`, `words` and `learn` are 0 or 1.
 */
export const COVERAGE_KEYS = [
  'newSiteValue',
  'siteYield',
  'hubs',
  'words',
  'learn',
  'learningRate',
  'rescoreEvery',
  'recheckTolerance',
] as const;

function fail(field: string, value: number, range: string): never {
  throw new ConfigError(`coverage: ${field} must be ${range}, got ${value}`, { context: { field } });
}

const offIfZero = (v: number): number | false => (v === 0 ? false : v);

/**
 * The resolved config from spec overrides.
 * @throws ConfigError naming the value out of range.
 */
export function resolveCoverageConfig(
  overrides: Readonly<Record<string, number>> = {},
): Readonly<CoverageConfig> {
  const d = DEFAULT_COVERAGE_CONFIG;
  const newSiteValue = overrides.newSiteValue ?? d.newSiteValue;
  if (!(newSiteValue >= 0)) fail('newSiteValue', newSiteValue, 'a number >= 0');
  const flag = (key: string, fallback: boolean): boolean => {
    const v = overrides[key] ?? (fallback ? 1 : 0);
    if (v !== 0 && v !== 1) fail(key, v, '0 or 1');
    return v === 1;
  };
  const isSiteYieldUsed = flag('siteYield', d.isSiteYieldUsed);
  const isHubUsed = flag('hubs', d.isHubUsed);
  const isWordUsed = flag('words', d.isWordUsed);
  const isLinkLearning = flag('learn', d.isLinkLearning);
  const learningRate = overrides.learningRate ?? d.learningRate;
  if (!(learningRate > 0)) fail('learningRate', learningRate, 'a number > 0');
  const rescore = overrides.rescoreEvery ?? (d.rescoreEveryPages === false ? 0 : d.rescoreEveryPages);
  if (!(Number.isInteger(rescore) && rescore >= 0))
    fail('rescoreEvery', rescore, 'an integer >= 0 (0: never)');
  const recheckTolerance = overrides.recheckTolerance ?? d.recheckTolerance;
  if (!(recheckTolerance > 0)) fail('recheckTolerance', recheckTolerance, 'a number > 0');
  return Object.freeze({
    newSiteValue,
    isSiteYieldUsed,
    isHubUsed,
    isWordUsed,
    isLinkLearning,
    learningRate,
    rescoreEveryPages: offIfZero(rescore),
    recheckTolerance,
  });
}
