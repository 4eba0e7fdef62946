/**
 * Every setting of the `coverage` strategy: relevant pages from many relevant sites. One setting
 * is meant for users, {@link CoverageConfig.siteShareValue} (how much a new relevant site is
 * worth); the others are fixed defaults across topics (none was tuned to a topic or a seed) and
 * turn parts of the link model off, for the ablation (results/coverage-strategy/README.md).
 */
import {
  booleanSetting,
  checkSettings,
  numberOrOffSetting,
  numberSetting,
  wordSetting,
} from '../../config/index.js';

/** What a fetch gains in `coverage` (see {@link CoverageConfig.gain}). */
export type CoverageGain = 'auto' | 'verdict' | 'probability';

export interface CoverageConfig {
  /**
   * lambda: how much a new relevant site is worth against one relevant page. A link's value is
   * p + lambda * p * [its site holds no judged-relevant page yet], p = P(target relevant).
   * With `siteShareValue` (the default) this is where lambda starts; with `siteShareValue=false`
   * lambda stays this (0: expected relevant pages only). @default 3 (measured on the five DocWeb
   * topics: results/coverage-strategy/default.md)
   */
  newSiteValue: number;
  /**
   * Diminishing returns per site: a site's n-th judged-relevant page is worth
   * 1 / (1 + n / siteSaturation) relevant pages (a concave utility, siteSaturation * ln(1 + n /
   * siteSaturation) relevant pages for n of them), so a site that has given many relevant pages
   * loses to links into sites that gave few. false: every relevant page is worth 1, however many
   * its site gave. @default 1000 (lower values leave big relevant sites too soon, and with hub
   * sites valued 600 gave up harvest rate for no more sites: results/coverage-strategy/
   * saturation.md, default-parts.md)
   */
  siteSaturation: number | false;
  /**
   * How long a site with no judged-relevant page keeps its new-site value: it halves with every
   * `newSitePatience` pages fetched from the site with none judged relevant (a link into it is
   * worth p * (1 + lambda * 2^(-f / this)) after f such pages), as the chance that a site holds
   * relevant pages falls with each page of it that is not. The domain limit leaves every site
   * after a fixed number of pages; this leaves only the unproductive ones. false: the new-site
   * value stays lambda until the site gives a relevant page. @default 1 (measured on the five
   * DocWeb topics: results/coverage-strategy/patience.md)
   */
  newSitePatience: number | false;
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
  /**
   * Value a link also by what fetching a page of its site has led to: p times lambda times the
   * new relevant sites found per page fetched from that site (through links out of its pages),
   * shrunk to the crawl's mean with 20 pseudo-pages. A hub site (a package index whose pages link
   * to projects' home pages) then keeps being fetched for the sites it leads to, through its pages
   * most likely relevant. With it `siteShareValue` traces a front that dominates best-first's with
   * and without a domain limit on every web measured, typesetting's sites behind a package index
   * included, which the crawl without it does not reach. false: a link is valued by its target
   * alone. @default true (results/coverage-strategy/hub-default.md)
   */
  isHubSiteValued: boolean;
  /** Learn the word features (URL, anchor and context words) of links. false: none. @default true */
  isWordUsed: boolean;
  /**
   * Among the word features, the words around the link (ACHE's "around" field). false: URL and
   * anchor words only; the crawl then neither extracts nor stores link contexts, the largest
   * part of `coverage`'s cost per page. @default true
   */
  isContextUsed: boolean;
  /**
   * Leaves (text nodes and empty elements, the apprentice's DOM offsets) on each side of a link
   * whose words are features (the parser keeps as many), at most 127. @default 5
   */
  contextLeaves: number;
  /** Words of each leaf around a link that are features, those nearest the link. @default 32 */
  contextWords: number;
  /**
   * Give the link model the logit of the judge's P(relevant) of the link's anchor and URL words
   * (the crawl scores every new link's anchor, as for TRES): the judge knows the topic's words
   * from the first page, where the link model's word weights start at zero. @default true
   */
  isAnchorScoreUsed: boolean;
  /**
   * Learn the link model online (one AdaGrad step per fetched link). false: it keeps its initial
   * weights, so the estimate is the parent page's P(relevant), as best-first's. @default true
   */
  isLinkLearning: boolean;
  /**
   * Scale lambda to the web: lambda = this x the judged-relevant pages per site that gave one, so
   * far (shrunk to `newSiteValue` by 5 pseudo-sites at the start): a new relevant site is worth
   * this share of what an average relevant site has given. Where relevant sites are many and small
   * a new one is worth fewer pages than where they are few and large. false: lambda stays
   * `newSiteValue`. @default 0.1 (measured on the five DocWeb topics with three judge draws,
   * with hub sites valued: results/coverage-strategy/site-share.md, hub-default.md)
   */
  siteShareValue: number | false;
  /**
   * A URL found again on another page is valued again (its words encoded, its value computed,
   * the queued link replaced if the new one is worth more) only if that page is more probably
   * relevant than the queued link's parent or the judge scores its anchor higher; otherwise it
   * keeps its queued link. Most links a crawl finds are found again (70% on the engine
   * benchmark's web): not encoding and valuing these took `coverage` from 0.76x to 0.80x
   * best-first's pages/s there, and tied on the DocWeb and the generated web. false: every URL
   * found again is valued again. @default true (results/coverage-strategy/refound.md)
   */
  isRefoundScreened: boolean;
  /**
   * What a fetch gains: `verdict`, 1 for a page judged relevant (P at or above the threshold)
   * and 0 otherwise; `probability`, the judge's P(relevant) of a new page: the link model learns
   * toward it, a site's relevant pages are the sum of its pages' P, and a site stays uncovered
   * with the probability that none of its pages is relevant (the product of 1 - P). A page just
   * over the threshold then counts for about half of one, not one. `auto`: `probability` when
   * the crawl's pages are judged by keyword counts alone (no trained model), whose barely
   * relevant verdicts are mostly wrong, else `verdict`. @default auto (with keywords alone the
   * probability won harvest rate or sites on four of five webs and lost none; with a trained
   * judge it won sites on one topic and lost harvest rate on another:
   * results/user-judge/probability-gain.md)
   */
  gain: CoverageGain;
  /** AdaGrad step size of the link model. @default 0.05 */
  learningRate: number;
  /**
   * Fetched pages between two rescorings of the whole frontier (a queued link's value can rise
   * when its site's yield does; falls are caught when it is drawn), at least: with a frontier of
   * more than 50 times as many links, one rescoring every frontier / 50 pages, so rescoring
   * costs at most about 50 link values per page however large the frontier grows. false:
   * never. @default 250
   */
  rescoreEveryPages: number | false;
  /**
   * A drawn link whose value fell by more than this since it was queued goes back with its new
   * value instead of being fetched. @default 0.02
   */
  recheckTolerance: number;
}

/** The settings of `coverage:key=value` specs, by field name, with their defaults and checks. */
export const COVERAGE_SETTINGS = {
  newSiteValue: numberSetting(3, 'lambda: a new relevant site is worth this many relevant pages', { min: 0 }),
  siteSaturation: numberOrOffSetting(1000, "a site's n-th relevant page is worth 1 / (1 + n / this)", {
    min: 0,
    isMinOpen: true,
  }),
  newSitePatience: numberOrOffSetting(1, 'new-site value halves after this many pages with none relevant', {
    min: 0,
    isMinOpen: true,
  }),
  isSiteYieldUsed: booleanSetting(true, "the link model sees the target site's yield"),
  isHubUsed: booleanSetting(true, "the link model sees the hub yield of an off-site link's parent"),
  isHubSiteValued: booleanSetting(
    true,
    'a link is also worth p x lambda x the new sites its site led to per page',
  ),
  isWordUsed: booleanSetting(true, 'the link model learns URL, anchor and context words'),
  isContextUsed: booleanSetting(true, 'the words around a link are features (false: URL and anchor only)'),
  contextLeaves: numberSetting(5, 'leaves on each side of a link whose words are features', {
    min: 1,
    max: 127,
    isInteger: true,
  }),
  contextWords: numberSetting(32, 'words of each leaf around a link that are features (the nearest)', {
    min: 1,
    max: 32,
    isInteger: true,
  }),
  isAnchorScoreUsed: booleanSetting(
    true,
    "the link model sees the judge's score of the link's anchor and URL",
  ),
  isLinkLearning: booleanSetting(true, "learn the link model online (false: best-first on the parent's P)"),
  siteShareValue: numberOrOffSetting(
    0.1,
    'lambda = this x the judged-relevant pages per relevant site so far',
    { min: 0, isMinOpen: true },
  ),
  isRefoundScreened: booleanSetting(
    true,
    'a URL found again is valued again only from a more relevant page or a better-scored anchor',
  ),
  gain: wordSetting(
    ['auto', 'verdict', 'probability'],
    'auto',
    "a fetch's gain: the judge's verdict (1 or 0) or its P(relevant); auto: P when pages are judged by keywords alone",
  ),
  learningRate: numberSetting(0.05, 'AdaGrad step size of the link model', { min: 0, isMinOpen: true }),
  rescoreEveryPages: numberOrOffSetting(250, 'pages between rescorings of the whole frontier (at least)', {
    min: 1,
    isInteger: true,
  }),
  recheckTolerance: numberSetting(0.02, 'a drawn link whose value fell by more goes back', {
    min: 0,
    isMinOpen: true,
  }),
};

/**
 * Old keys that the user's guide or results/ once showed (switches written 0 or 1, the gain as a
 * switch), so a config file or a stored crawl may hold them; a spec that uses one is taken with a
 * deprecation line.
 */
export const COVERAGE_ALIASES = {
  siteYield: { to: 'isSiteYieldUsed', values: { 0: false, 1: true } },
  hubs: { to: 'isHubUsed', values: { 0: false, 1: true } },
  hubSites: { to: 'isHubSiteValued', values: { 0: false, 1: true } },
  words: { to: 'isWordUsed', values: { 0: false, 1: true } },
  context: { to: 'isContextUsed', values: { 0: false, 1: true } },
  anchors: { to: 'isAnchorScoreUsed', values: { 0: false, 1: true } },
  learn: { to: 'isLinkLearning', values: { 0: false, 1: true } },
  isProbabilityGain: { to: 'gain', values: { true: 'probability', false: 'verdict' } },
};

/** Defaults of {@link CoverageConfig}. */
export const DEFAULT_COVERAGE_CONFIG: Readonly<CoverageConfig> = Object.freeze(
  checkSettings(COVERAGE_SETTINGS, {}, 'coverage'),
);

/**
 * Defaults, then `settings`, checked once.
 * @throws ConfigError naming the first field out of range.
 */
export function resolveCoverageConfig(settings: Partial<CoverageConfig> = {}): Readonly<CoverageConfig> {
  return Object.freeze(checkSettings(COVERAGE_SETTINGS, settings, 'coverage'));
}
