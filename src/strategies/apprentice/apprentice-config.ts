/**
 * Every hyperparameter of the apprentice crawler (Chakrabarti, Punera and Subramanyam, WWW 2002)
 * in one typed config; a run writes it into the crawl store (meta `strategyConfig`).
 */
import { booleanSetting, checkSettings, numberSetting } from '../../config/index.js';

export interface ApprenticeConfig {
  /**
   * true: the critic trains the apprentice, which then orders the frontier; false: the baseline
   * critic alone (best-first on the source page's relevance), the paper's "baseline" crawler.
   * @default true
   */
  isLearning: boolean;
  /**
   * Pages fetched per training batch; after each batch the new (u, v) instances are added and
   * the whole frontier is rescored. Section 2.1: "a batch size between a few hundred and a few
   * thousand pages"; we take the low end because our budgets are a few thousand pages
   * (section 3.5 suggests "every 100 page fetches" for a more gradual effect).
   * @default 200
   */
  batchPages: number;
  /** Largest |DOM offset| of a <token, offset> feature (section 3.4: dmax = 5). @default 5 */
  dMax: number;
  /**
   * true: after each batch the apprentice predicts with the DOM window |offset| <= w (w = 0 to dMax)
   * that ranked its past instances best before it learned them (area under the ROC curve of the
   * predictions each batch's instances got from the model of the batches before, over the last
   * {@link WINDOW_HISTORY} instances; ties to the wider window). Section 3.4
   * chose dmax by validation accuracy per topic ("the early increase leveled off or even
   * reversed"; 4 or 5 for their topics); this makes that choice online, per crawl. Measured on
   * the generated web (5 seeds x 3,000 pages, pages 1,001 to 3,000): at dMax = 5 the paragraph
   * words around an inline link, which say what the source page is about, outnumber the 1 to 4
   * anchor words that say what the target is about, and the apprentice orders like its critic
   * (74.4% against the critic's 74.4%); with the anchor words alone (dMax = 0) 91.1%.
   * @default true
   */
  shouldSelectWindow: boolean;
  /** Laplace smoothing pseudo-count of the naive Bayes apprentice. @default 1 */
  alpha: number;
}

export const DEFAULT_APPRENTICE_CONFIG: Readonly<ApprenticeConfig> = {
  isLearning: true,
  batchPages: 200,
  dMax: 5,
  shouldSelectWindow: true,
  alpha: 1,
};

/** Past instances whose predictions choose the window (the most recent ones). */
export const WINDOW_HISTORY = 10_000;

/** The settings an `apprentice:key=value` spec may set, by field name. */
export const APPRENTICE_SETTINGS = {
  isLearning: booleanSetting(true, 'false: the baseline critic alone (best-first)'),
  batchPages: numberSetting(200, 'pages per training batch', { min: 1, isInteger: true }),
  dMax: numberSetting(5, 'largest |DOM offset| of a feature', { min: 0, max: 127, isInteger: true }),
  shouldSelectWindow: booleanSetting(true, 'choose the DOM window online (false: always dMax)'),
  alpha: numberSetting(1, 'Laplace smoothing of the naive Bayes apprentice', { min: 0, isMinOpen: true }),
};

/** Old spec keys the commands in results/ use. */
export const APPRENTICE_ALIASES = {
  learn: { to: 'isLearning', values: { 0: false, 1: true } },
  selectWindow: { to: 'shouldSelectWindow', values: { 0: false, 1: true } },
};

/**
 * Defaults, then `settings`, checked once.
 * @throws ConfigError naming the first field out of range.
 */
export function resolveApprenticeConfig(settings: Partial<ApprenticeConfig> = {}): ApprenticeConfig {
  return checkSettings(APPRENTICE_SETTINGS, settings, 'apprentice');
}
