/**
 * Every hyperparameter of the `ache` strategy, with its origin in VIDA-NYU/ache (the crawler the
 * TRES journal's Table 3 calls ACHE; Barbosa and Freire, WWW 2007, for the online link learner).
 */
import {
  booleanSetting,
  checkSettings,
  numberOrOffSetting,
  numberSetting,
  type SettingsOf,
} from '../../config/index.js';
import { ACHE_FEATURE_SELECTION, type FeatureSelection } from './link-features.js';

export interface AcheConfig {
  /** Retrain the link classifier (true), or stay the best-first baseline forever (`isLearning=false`). @default true */
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
   * default). @default false
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

/**
 * The settings an `ache:key=value` spec may set, by field name (`ache:maxLinksPerDomain=20`,
 * `ache:isHardFocus=false`), with the defaults of {@link DEFAULT_ACHE_CONFIG}.
 */
export const ACHE_SETTINGS = {
  isLearning: booleanSetting(DEFAULT_ACHE_CONFIG.isLearning, 'false: stay the best-first baseline'),
  learnEveryPages: numberSetting(DEFAULT_ACHE_CONFIG.learnEveryPages, 'pages between two trainings', {
    min: 1,
    isInteger: true,
  }),
  maxSamplesPerClass: numberSetting(DEFAULT_ACHE_CONFIG.maxSamplesPerClass, 'training links kept per class', {
    min: 1,
    isInteger: true,
  }),
  isHardFocus: booleanSetting(DEFAULT_ACHE_CONFIG.isHardFocus, 'links of relevant pages first'),
  maxLinksPerDomain: numberOrOffSetting(DEFAULT_ACHE_CONFIG.maxLinksPerDomain, 'links queued per domain', {
    min: 1,
    isInteger: true,
  }),
};

/** What a caller or a spec may set. */
export type AcheSettings = Partial<SettingsOf<typeof ACHE_SETTINGS>>;

/**
 * The resolved config: defaults, then `settings`, checked once.
 * @throws ConfigError naming the value out of range.
 */
export function resolveAcheConfig(settings: AcheSettings = {}): Readonly<AcheConfig> {
  return Object.freeze({
    ...checkSettings(ACHE_SETTINGS, settings, 'ache'),
    selection: DEFAULT_ACHE_CONFIG.selection,
  });
}
