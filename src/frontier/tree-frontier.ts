/**
 * Tree-Frontier (TRES journal paper, section 2.6 and Algorithm 3; conference paper, Algorithm 2):
 * an online binary decision tree whose leaves hold both experience samples (x, r) of fetched URLs
 * and frontier samples (x of URLs not fetched yet). Experiences split leaves on the rule
 * `x[f] <= v` that most reduces the weighted reward variance; frontier samples follow the same
 * rules. Each step draws one representative per non-empty leaf, so the agent evaluates Q on a few
 * thousand representatives instead of the whole frontier (Figure 4: ~2,500 leaves for ~800,000
 * URLs at step 20,000).
 *
 * Costs: routing O(depth); adding, removing or rerouting a sample O(depth) or O(1); purging a URL
 * or a domain O(its samples) through the URL and domain indexes; representatives O(non-empty
 * leaves); a split O(F e log e + s) for the split leaf's e experiences and s frontier samples.
 *
 * Decisions (split rule details in `tree-split.ts`): population variance; thresholds are observed
 * values; ties go to the lowest feature, then the lowest threshold; leaves at `maxDepth` keep
 * storing experiences (all are kept, as in the authors' code) but never try a split; a leaf whose
 * rewards are all equal skips the search in O(1).
 *
 * Bookkeeping: each sample has a {@link Slot} in a `Map<S, Slot>` (the samples are not touched):
 * its leaf and its positions in the leaf's array and in its URL and domain groups, so that every
 * removal is a swap-remove. Samples' `url`, `domain` and `x` must not change while in the tree,
 * except `x` followed at once by {@link TreeFrontier.reroute}.
 */
import { TresError } from '../common/errors.js';
import type { Rng } from '../common/rng.js';
import { type DrawContext, type Frontier, isReady } from './frontier.js';
import { SlotGroups } from './tree-groups.js';
import { checkTreeInvariants } from './tree-invariants.js';
import { SortedLeafList } from './tree-leaf-list.js';
import { ExperienceSet, findBestSplit } from './tree-split.js';
import {
  checkTreeVector,
  leafStatsOf,
  resolveTreeFrontierOptions,
  type Slot,
  type TreeFrontierOptions,
  type TreeLeafStats,
  TreeNode,
  type TreeSample,
} from './tree-types.js';

export {
  DEFAULT_TREE_FRONTIER_OPTIONS,
  resolveTreeFrontierOptions,
  type TreeFrontierOptions,
  type TreeLeafStats,
  type TreeSample,
} from './tree-types.js';

/**
 * The frontier as a Tree-Frontier. `S` is the strategy's sample type. As a {@link Frontier}, a
 * draw gives one representative per non-empty leaf (the `rng` given at construction picks them).
 */
export class TreeFrontier<S extends TreeSample> implements Frontier<S> {
  /** Filled-in options. */
  readonly options: Readonly<Required<TreeFrontierOptions>>;
  private readonly root: TreeNode<S>;
  /** Every node by id (ids are creation order). */
  private readonly nodes: TreeNode<S>[] = [];
  private readonly slotOf = new Map<S, Slot<S>>();
  private readonly byUrl = new SlotGroups<Slot<S>>('urlPos');
  private readonly byDomain = new SlotGroups<Slot<S>>('domainPos');
  /** Leaves with frontier samples, ascending id: the deterministic order of representatives. */
  private readonly nonEmpty = new SortedLeafList<TreeNode<S>>();
  private leaves = 1;
  private experiences = 0;
  private maxLeafDepth = 0;

  private readonly rng: Rng | undefined;

  /**
   * @param deps.rng the random stream of {@link TreeFrontier.draw} (required to draw).
   * @throws ConfigError naming the field if an option is out of range.
   */
  constructor(options: TreeFrontierOptions, deps: { rng?: Rng } = {}) {
    this.options = resolveTreeFrontierOptions(options);
    this.root = this.newNode(0);
    this.rng = deps.rng;
  }

  /** {@link TreeFrontier.addSample} under the Frontier contract. */
  add(sample: S): void {
    this.addSample(sample);
  }

  /** {@link TreeFrontier.purgeUrl} under the Frontier contract. */
  removeUrl(url: string): number {
    return this.purgeUrl(url);
  }

  /** {@link TreeFrontier.removeSample} under the Frontier contract. */
  take(sample: S): boolean {
    return this.removeSample(sample);
  }

  /**
   * The action set of a step: one representative per non-empty leaf, without stale samples (URL
   * fetched, domain closed for good: purged, and representatives drawn again, up to
   * `maxDrawRounds` rounds) and
   * without samples that cannot be fetched right now (host busy, domain full with fetches in
   * flight: kept for later).
   * @throws TresError `TRES_TREE_NO_RNG` if the tree was built without an rng.
   */
  draw(ctx: DrawContext): S[] {
    const rng = this.rng;
    if (!rng)
      throw new TresError('TRES_TREE_NO_RNG', 'TreeFrontier.draw needs the rng given at construction');
    for (let round = 0; round < this.options.maxDrawRounds; round++) {
      let purged = 0;
      const ok: S[] = [];
      for (const s of this.representatives(rng)) {
        if (ctx.isFetched(s.url)) purged += this.purgeUrl(s.url);
        else if (ctx.isDomainClosed(s.domain)) purged += this.purgeDomain(s.domain);
        else if (isReady(ctx, s)) ok.push(s);
      }
      if (ok.length > 0 || purged === 0) return ok;
    }
    return [];
  }

  stats(): Record<string, number> {
    return {
      'frontier/size': this.size,
      'frontier/leaves': this.leafCount,
      'frontier/nonempty_leaves': this.nonEmptyLeafCount,
      'frontier/depth': this.depth,
    };
  }

  /** Frontier samples in the tree. */
  get size(): number {
    return this.slotOf.size;
  }
  /** All leaves, empty or not. */
  get leafCount(): number {
    return this.leaves;
  }
  /** Leaves holding at least one frontier sample: the number of representatives per step. */
  get nonEmptyLeafCount(): number {
    return this.nonEmpty.length;
  }
  /** Experiences added so far. */
  get experienceCount(): number {
    return this.experiences;
  }
  /** Depth of the deepest leaf (0 for a lone root). */
  get depth(): number {
    return this.maxLeafDepth;
  }

  /**
   * Algorithm 3 / Algorithm 2 line 2: stores the experience (x, reward) in its leaf and lets only
   * that leaf try one split (see {@link findBestSplit}), if it is above `maxDepth` and holds at
   * least `minSamplesToSplit` experiences. On a split the leaf's experiences and frontier samples
   * are partitioned by the new rule. Returns true if the leaf split.
   * @throws TresError `TRES_TREE_BAD_VECTOR` if x has the wrong length or a NaN, or reward is not finite.
   */
  addExperience(x: Float32Array, reward: number): boolean {
    checkTreeVector(x, this.options.featureCount);
    if (!Number.isFinite(reward))
      throw new TresError('TRES_TREE_BAD_VECTOR', `Experience reward must be finite, got ${reward}`);
    const leaf = this.route(x);
    leaf.experiences ??= new ExperienceSet(this.options.featureCount);
    leaf.experiences.add(x, reward);
    this.experiences++;
    if (leaf.depth >= this.options.maxDepth || leaf.experiences.count < this.options.minSamplesToSplit)
      return false;
    const split = findBestSplit(leaf.experiences, this.options);
    if (!split) return false;
    this.split(leaf, split.feature, split.threshold);
    return true;
  }

  /**
   * Routes a frontier sample to its leaf by its x (O(depth)) and indexes it by URL and domain.
   * @throws TresError `TRES_TREE_DUPLICATE_SAMPLE` if this object is already in the tree,
   *   `TRES_TREE_BAD_VECTOR` if x has the wrong length or a NaN.
   */
  addSample(sample: S): void {
    if (this.slotOf.has(sample))
      throw new TresError('TRES_TREE_DUPLICATE_SAMPLE', `Sample of ${sample.url} is already in the tree`, {
        context: { url: sample.url },
      });
    checkTreeVector(sample.x, this.options.featureCount);
    const slot: Slot<S> = { sample, leaf: this.root, leafPos: 0, urlPos: 0, domainPos: 0 };
    this.attach(slot, this.route(sample.x));
    this.byUrl.add(sample.url, slot);
    this.byDomain.add(sample.domain, slot);
    this.slotOf.set(sample, slot);
  }

  /** Removes one sample in O(1). Returns false (and does nothing) if it is not in the tree. */
  removeSample(sample: S): boolean {
    const slot = this.slotOf.get(sample);
    if (!slot) return false;
    this.forget(slot);
    this.byUrl.remove(sample.url, slot);
    this.byDomain.remove(sample.domain, slot);
    return true;
  }

  /** Removes every sample of this URL (fetched through another sample); returns how many. */
  purgeUrl(url: string): number {
    const group = this.byUrl.take(url);
    for (const slot of group) {
      this.forget(slot);
      this.byDomain.remove(slot.sample.domain, slot);
    }
    return group.length;
  }

  /** Removes every sample of this domain (at its page limit b); returns how many. */
  purgeDomain(domain: string): number {
    const group = this.byDomain.take(domain);
    for (const slot of group) {
      this.forget(slot);
      this.byUrl.remove(slot.sample.url, slot);
    }
    return group.length;
  }

  /**
   * Moves a sample whose x changed in place (e.g. refreshed domain features) to the leaf its new x
   * routes to, in O(depth). Returns false if the sample is not in the tree.
   * @throws TresError `TRES_TREE_BAD_VECTOR` if the new x has the wrong length or a NaN.
   */
  reroute(sample: S): boolean {
    const slot = this.slotOf.get(sample);
    if (!slot) return false;
    checkTreeVector(sample.x, this.options.featureCount);
    const leaf = this.route(sample.x);
    if (leaf !== slot.leaf) {
      this.detach(slot);
      this.attach(slot, leaf);
    }
    return true;
  }

  /**
   * Tree-Frontier sampling (Algorithm 2 line 4): one sample drawn uniformly from each leaf that has
   * frontier samples, in ascending leaf id order; one `rng.int` draw per leaf. The samples stay in
   * the tree. O(non-empty leaves).
   */
  representatives(rng: Rng): S[] {
    const leaves = this.nonEmpty.items;
    const out = new Array<S>(leaves.length);
    for (let i = 0; i < leaves.length; i++) {
      const slots = (leaves[i] as TreeNode<S>).slots;
      out[i] = (slots[rng.int(slots.length)] as Slot<S>).sample;
    }
    return out;
  }

  /**
   * The Tree-Random baseline's choice (journal section 3.2): a uniformly random non-empty leaf,
   * then a uniformly random sample of it; undefined if the frontier is empty. Stays in the tree.
   */
  randomSample(rng: Rng): S | undefined {
    if (this.nonEmpty.length === 0) return undefined;
    const slots = (this.nonEmpty.items[rng.int(this.nonEmpty.length)] as TreeNode<S>).slots;
    return (slots[rng.int(slots.length)] as Slot<S>).sample;
  }

  /** Every frontier sample, in insertion order. Do not add or remove while iterating. */
  samples(): IterableIterator<S> {
    return this.slotOf.keys();
  }

  /** True if this sample object is in the tree. */
  has(sample: S): boolean {
    return this.slotOf.has(sample);
  }

  /** Number of frontier samples with this URL. */
  countUrl(url: string): number {
    return this.byUrl.count(url);
  }

  /** Number of frontier samples of this domain. */
  countDomain(domain: string): number {
    return this.byDomain.count(domain);
  }

  /** The leaf id a vector routes to (O(depth)). */
  leafOf(x: Float32Array): number {
    return this.route(x).id;
  }

  /** The id of the leaf holding this sample, or undefined if it is not in the tree. */
  leafOfSample(sample: S): number | undefined {
    return this.slotOf.get(sample)?.leaf.id;
  }

  /** Numbers about leaf `id`, or undefined if `id` is not a leaf. */
  leafStats(id: number): TreeLeafStats | undefined {
    const node = this.nodes[id];
    return node && node.feature < 0 ? leafStatsOf(node) : undefined;
  }

  /** Ids of all leaves, ascending. */
  leafIds(): number[] {
    return this.nodes.filter((n) => n.feature < 0).map((n) => n.id);
  }

  /**
   * Checks every invariant (each sample in exactly one leaf, the one its rules lead to; positions,
   * URL and domain indexes, non-empty leaf list, experiences, depths and counts). For tests: O(size).
   * @throws TresError `TRES_TREE_INVARIANT` describing the first violation found.
   */
  checkInvariants(): void {
    checkTreeInvariants({
      root: this.root,
      nodes: this.nodes,
      slotOf: this.slotOf,
      byUrl: this.byUrl,
      byDomain: this.byDomain,
      nonEmpty: this.nonEmpty.items,
      leafCount: this.leaves,
      experienceCount: this.experiences,
      depth: this.maxLeafDepth,
      maxDepth: this.options.maxDepth,
      route: (x) => this.route(x),
    });
  }

  private newNode(depth: number): TreeNode<S> {
    const node = new TreeNode<S>(this.nodes.length, depth);
    this.nodes.push(node);
    return node;
  }

  private route(x: Float32Array): TreeNode<S> {
    let node = this.root;
    while (node.feature >= 0) node = (x[node.feature] as number) <= node.threshold ? node.left! : node.right!;
    return node;
  }

  /** Turns `leaf` into an internal node with rule x[feature] <= threshold and two new leaves. */
  private split(leaf: TreeNode<S>, feature: number, threshold: number): void {
    const left = this.newNode(leaf.depth + 1);
    const right = this.newNode(leaf.depth + 1);
    [left.experiences, right.experiences] = leaf.experiences!.partition(feature, threshold);
    const slots = leaf.slots;
    if (slots.length > 0) this.nonEmpty.remove(leaf);
    leaf.feature = feature;
    leaf.threshold = threshold;
    leaf.left = left;
    leaf.right = right;
    leaf.slots = [];
    leaf.experiences = null;
    for (const slot of slots) {
      const side = (slot.sample.x[feature] as number) <= threshold ? left : right;
      slot.leaf = side;
      slot.leafPos = side.slots.length;
      side.slots.push(slot);
    }
    if (left.slots.length > 0) this.nonEmpty.insert(left);
    if (right.slots.length > 0) this.nonEmpty.insert(right);
    this.leaves++;
    this.maxLeafDepth = Math.max(this.maxLeafDepth, left.depth);
  }

  private attach(slot: Slot<S>, leaf: TreeNode<S>): void {
    slot.leaf = leaf;
    slot.leafPos = leaf.slots.length;
    leaf.slots.push(slot);
    if (leaf.slots.length === 1) this.nonEmpty.insert(leaf);
  }

  /** Takes the slot out of its leaf and of the sample map (the URL and domain indexes are the caller's). */
  private forget(slot: Slot<S>): void {
    this.detach(slot);
    this.slotOf.delete(slot.sample);
  }

  /** Swap-removes the slot from its leaf's array. */
  private detach(slot: Slot<S>): void {
    const slots = slot.leaf.slots;
    const last = slots.pop()!;
    if (last !== slot) {
      slots[slot.leafPos] = last;
      last.leafPos = slot.leafPos;
    }
    if (slots.length === 0) this.nonEmpty.remove(slot.leaf);
  }
}
