/**
 * ACHE's link classifier model (`LinkClassifierTrainer`): a linear SVM with C = 1 on binary link
 * features, with Platt scaling for probabilities. ACHE trains it with SMILE's SVM; here the
 * linear SVM (hinge loss, bias as a constant feature) is solved by dual coordinate descent
 * (Hsieh, Chang, Lin, Keerthi and Sundararajan, ICML 2008: liblinear's L1-loss solver), which
 * reaches the same optimum, seeded for its pass order.
 */
import type { Rng } from '../../common/index.js';
import { fitPlatt, type PlattScaling, plattProbability } from '../../relevance/index.js';

/** A trained link classifier over interned field-word ids. */
export interface LinkModel {
  /** Weight of each selected field-word id (ids not in the map weigh 0). */
  weights: ReadonlyMap<number, number>;
  bias: number;
  platt: PlattScaling;
}

/** Solver settings. */
export interface LinkSvmOptions {
  /** Soft-margin cost C. @default 1 (ACHE) */
  c?: number;
  /** Most passes over the data. @default 50 */
  maxPasses?: number;
  /** Stop when the projected-gradient spread falls below this (liblinear's eps). @default 0.1 */
  tolerance?: number;
}

/** The SVM decision value of a link's ids. */
export function linkDecision(model: LinkModel, ids: ArrayLike<number>): number {
  let f = model.bias;
  for (let k = 0; k < ids.length; k++) f += model.weights.get(ids[k] as number) ?? 0;
  return f;
}

/** P(the link leads to a relevant page) from the Platt-scaled decision value. */
export function linkProbability(model: LinkModel, ids: ArrayLike<number>): number {
  return plattProbability(model.platt, linkDecision(model, ids));
}

/**
 * Trains on `links` (field-word ids) with 0/1 `labels`, keeping only the ids in `columns`
 * (the selected features). Needs both classes.
 */
export function trainLinkSvm(
  links: readonly Int32Array[],
  labels: ArrayLike<number>,
  columns: ReadonlyMap<number, number>,
  rng: Rng,
  options: LinkSvmOptions = {},
): LinkModel {
  const c = options.c ?? 1;
  const maxPasses = options.maxPasses ?? 50;
  const tolerance = options.tolerance ?? 0.1;
  const n = links.length;
  // Rows as column indices of the selected features; the bias is column `d`.
  const d = columns.size;
  const rows = links.map((ids) => {
    const cols: number[] = [];
    for (const id of ids) {
      const j = columns.get(id);
      if (j !== undefined) cols.push(j);
    }
    return Int32Array.from(cols);
  });
  const y = Float64Array.from({ length: n }, (_, i) => (labels[i] === 1 ? 1 : -1));
  const w = new Float64Array(d + 1);
  const alpha = new Float64Array(n);
  const order = Array.from({ length: n }, (_, i) => i);
  for (let pass = 0; pass < maxPasses; pass++) {
    rng.shuffle(order);
    let maxPg = Number.NEGATIVE_INFINITY;
    let minPg = Number.POSITIVE_INFINITY;
    for (const i of order) {
      const row = rows[i] as Int32Array;
      const yi = y[i] as number;
      let dot = w[d] as number;
      for (let k = 0; k < row.length; k++) dot += w[row[k] as number] as number;
      const g = yi * dot - 1;
      const a = alpha[i] as number;
      const pg = a === 0 ? Math.min(g, 0) : a === c ? Math.max(g, 0) : g;
      maxPg = Math.max(maxPg, pg);
      minPg = Math.min(minPg, pg);
      if (Math.abs(pg) < 1e-12) continue;
      const qii = row.length + 1; // binary features plus the bias feature
      const next = Math.min(Math.max(a - g / qii, 0), c);
      const step = (next - a) * yi;
      alpha[i] = next;
      for (let k = 0; k < row.length; k++) {
        const j = row[k] as number;
        w[j] = (w[j] as number) + step;
      }
      w[d] = (w[d] as number) + step;
    }
    if (maxPg - minPg < tolerance) break;
  }
  const weights = new Map<number, number>();
  for (const [id, j] of columns) if (w[j] !== 0) weights.set(id, w[j] as number);
  const model: LinkModel = { weights, bias: w[d] as number, platt: { a: 0, b: 0 } };
  const f = links.map((ids) => linkDecision(model, ids));
  model.platt = fitPlatt(f, labels);
  return model;
}
