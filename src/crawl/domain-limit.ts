/**
 * The domain limit b of the TRES papers: at most b fetched pages per web site (registrable
 * domain), so the crawl spreads over many relevant sites. Schedules:
 * - `none`: no limit.
 * - a number b: fixed limit.
 * - `B_F` (e.g. `5_2`, `10_2`): the papers' adaptive schedule: start at B, halve at T/3 and at
 *   2T/3 of the page budget T, never below F (5 -> 2 -> 2; 10 -> 5 -> 2).
 */
import { ConfigError } from '../common/index.js';

export type DomainLimit =
  | { kind: 'none' }
  | { kind: 'fixed'; b: number }
  | { kind: 'halving'; b: number; floor: number };

/**
 * Parses `none`, a positive integer, or `B_F`.
 * @throws ConfigError naming the field and the accepted forms.
 */
export function parseDomainLimit(text: string | number, field = 'maxPagesPerDomain'): DomainLimit {
  const value = String(text).trim().toLowerCase();
  if (value === 'none' || value === 'inf' || value === 'false') return { kind: 'none' };
  if (/^[1-9]\d*$/.test(value)) return { kind: 'fixed', b: Number(value) };
  const m = /^([1-9]\d*)_([1-9]\d*)$/.exec(value);
  if (m) {
    const b = Number(m[1]);
    const floor = Number(m[2]);
    if (floor > b)
      throw new ConfigError(`${field}: in "${text}" the floor ${floor} is above the start ${b}`, {
        context: { field },
      });
    return { kind: 'halving', b, floor };
  }
  throw new ConfigError(
    `${field}: "${text}" is not a domain limit; use none, a positive number such as 10, or START_FLOOR such as 5_2`,
    { context: { field } },
  );
}

/** The limit b in force at step `step` of a crawl of `totalSteps` pages (Infinity for none). */
export function domainLimitAt(limit: DomainLimit, step: number, totalSteps: number): number {
  switch (limit.kind) {
    case 'none':
      return Number.POSITIVE_INFINITY;
    case 'fixed':
      return limit.b;
    case 'halving': {
      const halvings = step >= (2 * totalSteps) / 3 ? 2 : step >= totalSteps / 3 ? 1 : 0;
      return Math.max(limit.floor, Math.floor(limit.b / 2 ** halvings));
    }
  }
}

/** Short text of a limit, as written on the command line (`none`, `10`, `5_2`). */
export function formatDomainLimit(limit: DomainLimit): string {
  if (limit.kind === 'none') return 'none';
  if (limit.kind === 'fixed') return String(limit.b);
  return `${limit.b}_${limit.floor}`;
}
