/**
 * Every hyperparameter of the apprentice crawler (Chakrabarti, Punera and Subramanyam, WWW 2002)
 * in one typed config; a run writes it into the crawl store (meta `strategyConfig`).
 */
import { ConfigError } from '../../common/errors.js';

export interface ApprenticeConfig {
  /**
   * 1: the critic trains the apprentice, which then orders the frontier; 0: the baseline critic
   * alone (best-first on the source page's relevance), the paper's "baseline" crawler.
   * @default 1
   */
  learn: 0 | 1;
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
   * 1: after each batch the apprentice predicts with the DOM window |offset| <= w (w = 0 to dMax)
   * that ranked its past instances best before it learned them (area under the ROC curve of the
   * predictions each batch's instances got from the model of the batches before, over the last
   * {@link WINDOW_HISTORY} instances; ties to the wider window); 0: always dMax. Section 3.4
   * chose dmax by validation accuracy per topic ("the early increase leveled off or even
   * reversed"; 4 or 5 for their topics); this makes that choice online, per crawl. Measured on
   * the generated web (5 seeds x 3,000 pages, pages 1,001 to 3,000): at dMax = 5 the paragraph
   * words around an inline link, which say what the source page is about, outnumber the 1 to 4
   * anchor words that say what the target is about, and the apprentice orders like its critic
   * (74.4% against the critic's 74.4%); with the anchor words alone (dMax = 0) 91.1%.
   * @default 1
   */
  selectWindow: 0 | 1;
  /** Laplace smoothing pseudo-count of the naive Bayes apprentice. @default 1 */
  alpha: number;
}

export const DEFAULT_APPRENTICE_CONFIG: Readonly<ApprenticeConfig> = {
  learn: 1,
  batchPages: 200,
  dMax: 5,
  selectWindow: 1,
  alpha: 1,
};

/** Past instances whose predictions choose the window (the most recent ones). */
export const WINDOW_HISTORY = 10_000;

/** Keys a strategy spec may override: `apprentice:batchPages=500,learn=0`. */
export const APPRENTICE_KEYS = ['learn', 'batchPages', 'dMax', 'selectWindow', 'alpha'] as const;

/**
 * Defaults, then `overrides`, checked once.
 * @throws ConfigError naming the first field out of range.
 */
export function resolveApprenticeConfig(overrides: Partial<Record<string, number>> = {}): ApprenticeConfig {
  const c = { ...DEFAULT_APPRENTICE_CONFIG, ...overrides } as ApprenticeConfig;
  const fail = (field: string, rule: string): never => {
    throw new ConfigError(
      `apprentice config: ${field} must be ${rule}, got ${c[field as keyof ApprenticeConfig]}`,
      {
        context: { field },
      },
    );
  };
  if (c.learn !== 0 && c.learn !== 1) fail('learn', '0 or 1');
  if (!Number.isInteger(c.batchPages) || c.batchPages < 1) fail('batchPages', 'an integer >= 1');
  if (!Number.isInteger(c.dMax) || c.dMax < 0 || c.dMax > 127) fail('dMax', 'an integer 0..127');
  if (c.selectWindow !== 0 && c.selectWindow !== 1) fail('selectWindow', '0 or 1');
  if (!(c.alpha > 0)) fail('alpha', '> 0');
  return c;
}
