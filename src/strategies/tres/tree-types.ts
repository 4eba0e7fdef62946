/**
 * Types and options of the Tree-Frontier (see `tree-frontier.ts`): the sample a strategy puts in
 * the tree, the options with the authors' defaults, and the node and slot records the tree, its
 * indexes and its invariant check share.
 */
import { ConfigError, TresError } from '../../common/index.js';
import type { ExperienceSet } from './tree-split.js';

/** Options of `TreeFrontier`; the defaults are the authors' configuration (reference code). */
export interface TreeFrontierOptions {
  /** Length of every state-action vector (an integer >= 1). Required. */
  featureCount: number;
  /** Depth limit: a leaf at this depth (the root is at 0) never splits; 0 keeps one leaf. @default 18 */
  maxDepth?: number;
  /** Experiences a leaf needs before it tries a split (integer >= 1). @default 5 */
  minSamplesToSplit?: number;
  /** Each side of a split needs at least this fraction of the leaf's experiences, in [0, 0.5]; 0 turns it off. @default 0 */
  minSideFraction?: number;
  /** Minimum experiences on each side of a split (integer >= 1). @default 1 */
  minSamplesPerSide?: number;
  /**
   * Rounds of drawing representatives again after purging stale ones (URL fetched, domain
   * closed) before a draw gives up for this step (integer >= 1). @default 8
   */
  maxDrawRounds?: number;
}

/** Defaults of {@link TreeFrontierOptions} (authors' code: depth 18, split at 5, fraction 0). */
export const DEFAULT_TREE_FRONTIER_OPTIONS: Readonly<Required<Omit<TreeFrontierOptions, 'featureCount'>>> =
  Object.freeze({
    maxDepth: 18,
    minSamplesToSplit: 5,
    minSideFraction: 0,
    minSamplesPerSide: 1,
    maxDrawRounds: 8,
  });

/** Numbers about one leaf, for diagnostics and tests. */
export interface TreeLeafStats {
  id: number;
  depth: number;
  /** Frontier samples in the leaf. */
  sampleCount: number;
  experienceCount: number;
  /** Mean and population variance of the leaf's experience rewards (0 with no experiences). */
  rewardMean: number;
  rewardVariance: number;
}

/** A node: a leaf while `feature` is -1, else an internal node with rule `x[feature] <= threshold`. */
export class TreeNode {
  feature = -1;
  threshold = 0;
  left: TreeNode | null = null;
  right: TreeNode | null = null;
  /** Ids of the frontier samples of a leaf (empty for internal nodes). */
  slots: number[] = [];
  /** Experiences of a leaf (null until the first one, and for internal nodes). */
  experiences: ExperienceSet | null = null;
  constructor(
    readonly id: number,
    readonly depth: number,
  ) {}
}

function checkInteger(value: number, field: string, min: number): void {
  if (!Number.isInteger(value) || value < min)
    throw new ConfigError(`${field} must be an integer >= ${min}, got ${value}`, { context: { field } });
}

/**
 * Fills in the defaults and checks every range once.
 * @throws ConfigError naming the field if an option is out of range.
 */
export function resolveTreeFrontierOptions(
  options: TreeFrontierOptions,
): Readonly<Required<TreeFrontierOptions>> {
  const d = DEFAULT_TREE_FRONTIER_OPTIONS;
  const o: Required<TreeFrontierOptions> = {
    featureCount: options.featureCount,
    maxDepth: options.maxDepth ?? d.maxDepth,
    minSamplesToSplit: options.minSamplesToSplit ?? d.minSamplesToSplit,
    minSideFraction: options.minSideFraction ?? d.minSideFraction,
    minSamplesPerSide: options.minSamplesPerSide ?? d.minSamplesPerSide,
    maxDrawRounds: options.maxDrawRounds ?? d.maxDrawRounds,
  };
  checkInteger(o.featureCount, 'featureCount', 1);
  checkInteger(o.maxDepth, 'maxDepth', 0);
  checkInteger(o.minSamplesToSplit, 'minSamplesToSplit', 1);
  checkInteger(o.minSamplesPerSide, 'minSamplesPerSide', 1);
  checkInteger(o.maxDrawRounds, 'maxDrawRounds', 1);
  if (!(o.minSideFraction >= 0 && o.minSideFraction <= 0.5))
    throw new ConfigError(`minSideFraction must be in [0, 0.5], got ${o.minSideFraction}`, {
      context: { field: 'minSideFraction' },
    });
  return Object.freeze(o);
}

/**
 * Checks a state-action vector before it enters the tree.
 * @throws TresError `TRES_TREE_BAD_VECTOR` if its length is not `featureCount` or it holds a NaN
 *   (NaN fails every `x[f] <= v` test, so it would be routed silently to the right).
 */
export function checkTreeVector(x: ArrayLike<number>, featureCount: number): void {
  if (x.length !== featureCount)
    throw new TresError('TRES_TREE_BAD_VECTOR', `Vector has ${x.length} features, expected ${featureCount}`);
  for (let i = 0; i < x.length; i++)
    if (Number.isNaN(x[i])) throw new TresError('TRES_TREE_BAD_VECTOR', `Feature ${i} of the vector is NaN`);
}

/** The {@link TreeLeafStats} of a leaf. */
export function leafStatsOf(leaf: TreeNode): TreeLeafStats {
  const e = leaf.experiences;
  const experienceCount = e?.count ?? 0;
  return {
    id: leaf.id,
    depth: leaf.depth,
    sampleCount: leaf.slots.length,
    experienceCount,
    rewardMean: e && experienceCount > 0 ? e.rewardSum / experienceCount : 0,
    rewardVariance: e?.rewardVariance() ?? 0,
  };
}
