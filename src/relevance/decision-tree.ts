/**
 * A binary decision tree with reduced-error pruning and Laplace-smoothed leaves, after WEKA's
 * REPTree as RLwCS used it (Partalas et al. 2008, section 3: "Decision tree (DT): with Laplace
 * smoothing and reduced error pruning"): grown on part of the data by information gain over
 * numeric thresholds, pruned bottom-up on the held-out rest wherever a leaf errs no more than
 * the subtree, and predicting (positives + 1) / (examples + 2) of its leaf.
 */
import type { Rng } from '../common/index.js';
import type { DenseClassifier, DenseDataset } from './dense-classifiers.js';

/** Settings of {@link trainDecisionTree}. */
export interface DecisionTreeOptions {
  /** Deepest split level. @default 10 */
  maxDepth?: number;
  /** Fewest growing examples on each side of a split (REPTree's -M). @default 2 */
  minLeaf?: number;
  /** Share of the examples held out for pruning (REPTree uses 1 of 3 folds). @default 1/3 */
  pruneFraction?: number;
}

interface TreeNode {
  /** Growing-set counts: examples and positives. */
  n: number;
  positives: number;
  feature: number;
  threshold: number;
  left: TreeNode | undefined;
  right: TreeNode | undefined;
}

/** Entropy (bits) of a two-class count. */
function entropy(pos: number, n: number): number {
  if (pos === 0 || pos === n) return 0;
  const p = pos / n;
  return -p * Math.log2(p) - (1 - p) * Math.log2(1 - p);
}

/** Trains a tree; the split of growing and pruning examples is drawn from `rng`. */
export function trainDecisionTree(
  data: DenseDataset,
  rng: Rng,
  options: DecisionTreeOptions = {},
): DenseClassifier {
  const maxDepth = options.maxDepth ?? 10;
  const minLeaf = options.minLeaf ?? 2;
  const pruneFraction = options.pruneFraction ?? 1 / 3;
  const order = rng.shuffle(Array.from({ length: data.xs.length }, (_, i) => i));
  const pruneCount = data.xs.length >= 6 ? Math.floor(order.length * pruneFraction) : 0;
  const pruneSet = order.slice(0, pruneCount);
  const growSet = order.slice(pruneCount).sort((a, b) => a - b);
  const d = data.xs[0]?.length ?? 0;
  const label = (i: number): number => (data.labels[i] === 1 ? 1 : 0);

  const grow = (rows: number[], depth: number): TreeNode => {
    let positives = 0;
    for (const i of rows) positives += label(i);
    const node: TreeNode = {
      n: rows.length,
      positives,
      feature: -1,
      threshold: 0,
      left: undefined,
      right: undefined,
    };
    if (depth >= maxDepth || positives === 0 || positives === rows.length || rows.length < 2 * minLeaf)
      return node;
    const parentEntropy = entropy(positives, rows.length);
    let bestGain = 1e-9;
    const pairs = rows.map((i) => ({ v: 0, y: label(i) }));
    for (let j = 0; j < d; j++) {
      rows.forEach((i, k) => {
        (pairs[k] as { v: number }).v = (data.xs[i] as Float32Array)[j] as number;
      });
      pairs.sort((a, b) => a.v - b.v);
      let leftPos = 0;
      for (let k = 0; k < pairs.length - 1; k++) {
        leftPos += (pairs[k] as { y: number }).y;
        const here = (pairs[k] as { v: number }).v;
        const nextValue = (pairs[k + 1] as { v: number }).v;
        if (here === nextValue) continue;
        const nLeft = k + 1;
        const nRight = pairs.length - nLeft;
        if (nLeft < minLeaf || nRight < minLeaf) continue;
        const gain =
          parentEntropy -
          (nLeft / pairs.length) * entropy(leftPos, nLeft) -
          (nRight / pairs.length) * entropy(positives - leftPos, nRight);
        if (gain > bestGain) {
          bestGain = gain;
          node.feature = j;
          node.threshold = (here + nextValue) / 2;
        }
      }
    }
    if (node.feature < 0) return node;
    const left: number[] = [];
    const right: number[] = [];
    for (const i of rows)
      ((data.xs[i] as Float32Array)[node.feature] as number) <= node.threshold ? left.push(i) : right.push(i);
    node.left = grow(left, depth + 1);
    node.right = grow(right, depth + 1);
    return node;
  };

  /** Reduced-error pruning: returns the subtree's errors on `rows` after pruning it. */
  const prune = (node: TreeNode, rows: number[]): number => {
    const majority = 2 * node.positives >= node.n ? 1 : 0;
    let leafErrors = 0;
    for (const i of rows) if (label(i) !== majority) leafErrors++;
    if (node.left === undefined || node.right === undefined) return leafErrors;
    const left: number[] = [];
    const right: number[] = [];
    for (const i of rows)
      ((data.xs[i] as Float32Array)[node.feature] as number) <= node.threshold ? left.push(i) : right.push(i);
    const subtreeErrors = prune(node.left, left) + prune(node.right, right);
    if (leafErrors <= subtreeErrors) {
      node.left = undefined;
      node.right = undefined;
      node.feature = -1;
      return leafErrors;
    }
    return subtreeErrors;
  };

  const root = grow(growSet, 0);
  if (pruneSet.length > 0) prune(root, pruneSet);
  return {
    name: 'dt',
    probability: (x) => {
      let node = root;
      while (node.left !== undefined && node.right !== undefined) {
        node = (x[node.feature] as number) <= node.threshold ? node.left : node.right;
      }
      return (node.positives + 1) / (node.n + 2);
    },
  };
}
