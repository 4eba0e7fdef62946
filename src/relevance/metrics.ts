/**
 * Classification metrics of Table 1 of the TRES papers: precision and recall of the relevant
 * class and the macro-averaged F1 score (mean of the F1 of both classes).
 */

/** Counts of a binary confusion matrix (positive = relevant). */
export interface Confusion {
  tp: number;
  fp: number;
  tn: number;
  fn: number;
}

/** Table-1 metrics, as fractions in [0, 1]. */
export interface ClassificationMetrics {
  /** Precision of the relevant class (0 if nothing was predicted relevant). */
  precision: number;
  /** Recall of the relevant class. */
  recall: number;
  /** Mean of the F1 scores of the relevant and the irrelevant class. */
  macroF1: number;
  /** Share of correct predictions. */
  accuracy: number;
}

/**
 * Confusion counts of `probabilities` thresholded at `threshold` (>= is relevant) against `labels`.
 * @throws RangeError if the lengths differ
 */
export function confusion(
  labels: ArrayLike<number>,
  probabilities: ArrayLike<number>,
  threshold = 0.5,
): Confusion {
  if (labels.length !== probabilities.length)
    throw new RangeError('labels and probabilities differ in length');
  const c: Confusion = { tp: 0, fp: 0, tn: 0, fn: 0 };
  for (let i = 0; i < labels.length; i++) {
    const isPredicted = (probabilities[i] as number) >= threshold;
    const isRelevant = labels[i] === 1;
    if (isPredicted && isRelevant) c.tp++;
    else if (isPredicted) c.fp++;
    else if (isRelevant) c.fn++;
    else c.tn++;
  }
  return c;
}

function f1(tp: number, fp: number, fn: number): number {
  const d = 2 * tp + fp + fn;
  return d === 0 ? 0 : (2 * tp) / d;
}

/** Table-1 metrics of a confusion matrix. */
export function metricsOf(c: Confusion): ClassificationMetrics {
  const total = c.tp + c.fp + c.tn + c.fn;
  return {
    precision: c.tp + c.fp === 0 ? 0 : c.tp / (c.tp + c.fp),
    recall: c.tp + c.fn === 0 ? 0 : c.tp / (c.tp + c.fn),
    // F1 of the irrelevant class swaps the roles: its true positives are tn.
    macroF1: (f1(c.tp, c.fp, c.fn) + f1(c.tn, c.fn, c.fp)) / 2,
    accuracy: total === 0 ? 0 : (c.tp + c.tn) / total,
  };
}

/** Sums confusion matrices (pooled over cross-validation folds). */
export function addConfusion(a: Confusion, b: Confusion): Confusion {
  return { tp: a.tp + b.tp, fp: a.fp + b.fp, tn: a.tn + b.tn, fn: a.fn + b.fn };
}

/** Mean binary cross-entropy of probabilities, clipped to [1e-7, 1 - 1e-7]. */
export function logLoss(labels: ArrayLike<number>, probabilities: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < labels.length; i++) {
    const p = Math.min(1 - 1e-7, Math.max(1e-7, probabilities[i] as number));
    s -= labels[i] === 1 ? Math.log(p) : Math.log(1 - p);
  }
  return labels.length === 0 ? 0 : s / labels.length;
}

/**
 * Area under the ROC curve of `scores` for binary `labels` (1 positive): the probability that a
 * random positive scores above a random negative, ties counting one half (Mann-Whitney U over
 * average ranks). NaN when either class is absent.
 */
export function rocAuc(labels: ArrayLike<number>, scores: ArrayLike<number>): number {
  const n = labels.length;
  const order = Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => (scores[a] as number) - (scores[b] as number),
  );
  let positives = 0;
  let rankSum = 0;
  for (let i = 0; i < n; ) {
    let j = i;
    while (j + 1 < n && scores[order[j + 1] as number] === scores[order[i] as number]) j++;
    const averageRank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) {
      if (labels[order[k] as number] === 1) {
        positives++;
        rankSum += averageRank;
      }
    }
    i = j + 1;
  }
  const negatives = n - positives;
  if (positives === 0 || negatives === 0) return Number.NaN;
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}

/**
 * Wilson score interval of a proportion of `successes` in `trials` at about 95% confidence
 * (z = 1.96): what a share measured on few examples can say. [0, 1] when there are no trials.
 */
export function wilsonInterval(successes: number, trials: number, z = 1.96): [number, number] {
  if (trials <= 0) return [0, 1];
  const p = successes / trials;
  const z2 = z * z;
  const centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
  const half = (z / (1 + z2 / trials)) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}
