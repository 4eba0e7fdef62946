/**
 * Seeded stratified splits: the k folds of cross-validation and the validation split of early
 * stopping. Each class is shuffled with the given Rng and dealt round-robin, so every fold holds
 * about the same share of relevant documents, and the same seed gives the same folds.
 */
import type { Rng } from '../common/index.js';

/**
 * Assigns each item a fold in [0, k), stratified by `labels` (0/1).
 * @throws RangeError if k < 2 or a class has fewer than k members
 */
export function stratifiedFolds(labels: ArrayLike<number>, k: number, rng: Rng): Int32Array {
  if (!(k >= 2)) throw new RangeError(`need k >= 2 folds, got ${k}`);
  const folds = new Int32Array(labels.length);
  for (const cls of [1, 0]) {
    const members: number[] = [];
    for (let i = 0; i < labels.length; i++) if (labels[i] === cls) members.push(i);
    if (members.length < k)
      throw new RangeError(`class ${cls} has ${members.length} documents, fewer than ${k} folds`);
    rng.shuffle(members);
    members.forEach((item, j) => {
      folds[item] = j % k;
    });
  }
  return folds;
}

/**
 * Splits indices 0..n-1 into train and validation, stratified, with `fraction` of each class
 * (at least one item of each class) in validation.
 */
export function stratifiedSplit(
  labels: ArrayLike<number>,
  fraction: number,
  rng: Rng,
): { train: number[]; validation: number[] } {
  const train: number[] = [];
  const validation: number[] = [];
  for (const cls of [1, 0]) {
    const members: number[] = [];
    for (let i = 0; i < labels.length; i++) if (labels[i] === cls) members.push(i);
    rng.shuffle(members);
    const nVal = members.length < 2 ? 0 : Math.max(1, Math.round(members.length * fraction));
    validation.push(...members.slice(0, nVal));
    train.push(...members.slice(nVal));
  }
  train.sort((a, b) => a - b);
  validation.sort((a, b) => a - b);
  return { train, validation };
}

/** Per-example weights: 1 for everyone, or inverse class frequency scaled to mean 1 ('balanced'). */
export function classWeights(labels: ArrayLike<number>, mode: 'balanced' | false): Float32Array {
  const w = new Float32Array(labels.length).fill(1);
  if (mode !== 'balanced') return w;
  let pos = 0;
  for (let i = 0; i < labels.length; i++) if (labels[i] === 1) pos++;
  const neg = labels.length - pos;
  if (pos === 0 || neg === 0) return w;
  for (let i = 0; i < labels.length; i++) w[i] = labels.length / (2 * (labels[i] === 1 ? pos : neg));
  return w;
}

/**
 * Smallest drop of the validation loss that counts as an improvement for early stopping
 * (Keras's `min_delta`): below it, a nearly perfect model would train on for nothing.
 */
export const EARLY_STOPPING_MIN_DELTA = 1e-4;
