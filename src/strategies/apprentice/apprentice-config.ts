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
  /** Laplace smoothing pseudo-count of the naive Bayes apprentice. @default 1 */
  alpha: number;
}

export const DEFAULT_APPRENTICE_CONFIG: Readonly<ApprenticeConfig> = {
  learn: 1,
  batchPages: 200,
  dMax: 5,
  alpha: 1,
};

/** Keys a strategy spec may override: `apprentice:batchPages=500,learn=0`. */
export const APPRENTICE_KEYS = ['learn', 'batchPages', 'dMax', 'alpha'] as const;

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
  if (!(c.alpha > 0)) fail('alpha', '> 0');
  return c;
}
