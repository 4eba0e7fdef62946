/**
 * Every hyperparameter of the `ache` strategy, with its origin in VIDA-NYU/ache (the crawler the
 * TRES journal's Table 3 calls ACHE; Barbosa and Freire, WWW 2007, for the online link learner).
 */
import { ConfigError } from '../../common/errors.js';
import { ACHE_FEATURE_SELECTION, type FeatureSelection } from './link-features.js';

export interface AcheConfig {
  /** Retrain the link classifier (true), or stay the best-first baseline forever (`learn=0`). @default true */
  isLearning: boolean;
  /**
   * Fetched pages between two trainings of the link classifier; the whole frontier is rescored
   * after each. ACHE: `link_storage.online_learning.learning_limit`. @default 500
   */
  learnEveryPages: number;
  /**
   * Most training links per class, reservoir-sampled (ACHE: `LinkClassifierBuilder.maxSamples`).
   * As in ACHE, an irrelevant link is sampled only while the negatives are fewer than the
   * positives, so the two classes stay about balanced. @default 5000
   */
  maxSamplesPerClass: number;
  /**
   * ACHE's `target_storage.hard_focus`: only the links of relevant pages are followed. ACHE drops
   * the others, and then may run out of URLs (TRES journal, section 3.5: "ACHE aborted, as it run
   * out of URLs"); here they wait behind every link of a relevant page instead, so the crawl
   * spends its budget. false: links of all pages compete on their score alone. @default true
   */
  isHardFocus: boolean;
  /**
   * ACHE's `link_storage.max_pages_per_domain`: at most this many links of one domain are ever
   * queued (a site-level heuristic that spreads the crawl over sites); false for no cap (ACHE's
   * default). In a spec, `maxLinksPerDomain=0` means false. @default false
   */
  maxLinksPerDomain: number | false;
  /** Words kept per field at each training (ACHE: 150 URL, 150 anchor, 100 around, count >= 2). */
  selection: Readonly<FeatureSelection>;
}

/** Defaults of {@link AcheConfig}: ACHE's own values. */
export const DEFAULT_ACHE_CONFIG: Readonly<AcheConfig> = Object.freeze({
  isLearning: true,
  learnEveryPages: 500,
  maxSamplesPerClass: 5000,
  isHardFocus: true,
  maxLinksPerDomain: false,
  selection: ACHE_FEATURE_SELECTION,
});

/** Settings an `ache:key=value` spec may override (`learn` and `hardFocus` are 0 or 1). */
export const ACHE_KEYS = ['learn', 'learnEvery', 'maxSamples', 'hardFocus', 'maxLinksPerDomain'] as const;

function fail(field: string, value: number, range: string): never {
  throw new ConfigError(`ache: ${field} must be ${range}, got ${value}`, { context: { field } });
}

const isFlag = (v: number) => v === 0 || v === 1;
const isPositiveInt = (v: number) => Number.isInteger(v) && v >= 1;

/**
 * The resolved config from spec overrides.
 * @throws ConfigError naming the value out of range.
 */
export function resolveAcheConfig(overrides: Readonly<Record<string, number>> = {}): Readonly<AcheConfig> {
  const d = DEFAULT_ACHE_CONFIG;
  const learn = overrides.learn ?? 1;
  if (!isFlag(learn)) fail('learn', learn, '0 or 1');
  const hardFocus = overrides.hardFocus ?? (d.isHardFocus ? 1 : 0);
  if (!isFlag(hardFocus)) fail('hardFocus', hardFocus, '0 or 1');
  const learnEveryPages = overrides.learnEvery ?? d.learnEveryPages;
  if (!isPositiveInt(learnEveryPages)) fail('learnEvery', learnEveryPages, 'an integer >= 1');
  const maxSamplesPerClass = overrides.maxSamples ?? d.maxSamplesPerClass;
  if (!isPositiveInt(maxSamplesPerClass)) fail('maxSamples', maxSamplesPerClass, 'an integer >= 1');
  const cap = overrides.maxLinksPerDomain ?? 0;
  if (!(Number.isInteger(cap) && cap >= 0)) fail('maxLinksPerDomain', cap, 'an integer >= 0 (0: no cap)');
  return Object.freeze({
    isLearning: learn === 1,
    learnEveryPages,
    maxSamplesPerClass,
    isHardFocus: hardFocus === 1,
    maxLinksPerDomain: cap === 0 ? false : cap,
    selection: d.selection,
  });
}
