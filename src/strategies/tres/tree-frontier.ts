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
 * Storage: samples are ids in a {@link SampleTable} (URL, host and domain interned,
 * the vector in one shared Float32Array, URL and domain groups as linked lists); the tree adds
 * two Int32 columns (leaf and position in the leaf's id array), so that every removal is a
 * swap-remove and no object exists per sample. A sample's vector must not change while it is in
 * the tree, except in place in `table.x` followed at once by {@link TreeFrontier.reroute}.
 */

import type { Rng } from '../../common/index.js';
import { ConfigError, TresError } from '../../common/index.js';
import type { DrawContext, IndexedFrontier } from '../../frontier/index.js';
import {
  growableArray,
  grownArray,
  grownCapacity,
  type SampleInput,
  SampleTable,
} from '../../frontier/index.js';
import { checkTreeInvariants } from './tree-invariants.js';
import { SortedLeafList } from './tree-leaf-list.js';
import { ExperienceSet, findBestSplit } from './tree-split.js';
import {
  checkTreeVector,
  leafStatsOf,
  resolveTreeFrontierOptions,
  type TreeFrontierOptions,
  type TreeLeafStats,
  TreeNode,
} from './tree-types.js';

export {
  DEFAULT_TREE_FRONTIER_OPTIONS,
  resolveTreeFrontierOptions,
  type TreeFrontierOptions,
  type TreeLeafStats,
} from './tree-types.js';

const NOT_IN_TREE = -1;

/** A node of a {@link TreeLearnedState}: an internal rule, a leaf's experiences, or an empty leaf. */
export type TreeNodeState =
  | { feature: number; threshold: number; left: number; right: number }
  | { rows?: Float32Array; rewards?: Float64Array };

/** What a Tree-Frontier has learned (see {@link TreeFrontier.learnedState}). */
export interface TreeLearnedState {
  /** By node id (creation order; the root is 0). */
  nodes: TreeNodeState[];
}

/** Per-draw answers about a host or domain. */
const UNKNOWN = 0;
const OPEN = 1;
const FULL = 2;
const CLOSED = 3;

/** A cleared memo of at least `n` entries (reusing `old` when it is large enough). */
function memo(old: Uint8Array, n: number): Uint8Array {
  if (old.length < n) return new Uint8Array(Math.max(n, old.length * 2));
  old.fill(UNKNOWN, 0, n);
  return old;
}

/**
 * The frontier as a Tree-Frontier. As an {@link IndexedFrontier}, a draw gives one representative
 * per non-empty leaf (the `rng` given at construction picks them).
 */
export class TreeFrontier implements IndexedFrontier {
  /** Filled-in options. */
  readonly options: Readonly<Required<TreeFrontierOptions>>;
  /** The samples' columns. */
  readonly table: SampleTable;
  private readonly root: TreeNode;
  /** Every node by id (ids are creation order). */
  private readonly nodes: TreeNode[] = [];
  /** Leaf node id of each sample id (NOT_IN_TREE if none), and its position in the leaf's array. */
  private leafOfId = growableArray(Int32Array, 1024).fill(NOT_IN_TREE);
  private posOfId = growableArray(Int32Array, 1024);
  /** Leaves with frontier samples, ascending id: the deterministic order of representatives. */
  private readonly nonEmpty = new SortedLeafList<TreeNode>();
  private leaves = 1;
  private experiences = 0;
  private maxLeafDepth = 0;
  private readonly rng: Rng | undefined;
  /** Per-draw answers by host id and by domain id (see {@link TreeFrontier.draw}). */
  private hostMemo: Uint8Array = new Uint8Array(64);
  private domainMemo: Uint8Array = new Uint8Array(64);
  /** Detaches a sample from its leaf (bound once: the table's purges call it per sample). */
  private readonly detachId = (id: number) => this.detach(id);

  /**
   * @param deps.rng the random stream of {@link TreeFrontier.draw} (required to draw).
   * @param deps.isRecycleDeferred see {@link SampleTable} (TRES reads removed outlinks' vectors
   *   until the next decision). @default false
   * @throws ConfigError naming the field if an option is out of range.
   */
  constructor(options: TreeFrontierOptions, deps: { rng?: Rng; isRecycleDeferred?: boolean } = {}) {
    this.options = resolveTreeFrontierOptions(options);
    this.table = new SampleTable({
      featureCount: this.options.featureCount,
      isRecycleDeferred: deps.isRecycleDeferred ?? false,
    });
    this.root = this.newNode(0);
    this.rng = deps.rng;
  }

  /**
   * Adds a frontier sample with vector `x` (copied into the table), routes it to its leaf by x
   * (O(depth)) and indexes it by URL and domain. Returns its id.
   * @throws TresError `TRES_TREE_BAD_VECTOR` if x has the wrong length or a NaN.
   */
  add(input: SampleInput, parent: number, x: ArrayLike<number>): number {
    const f = this.options.featureCount;
    checkTreeVector(x, f);
    const id = this.table.add(input, parent);
    const pool = this.table.x;
    for (let i = 0; i < f; i++) pool[id * f + i] = x[i] as number;
    if (id >= this.leafOfId.length) {
      // Read the old length before growing: a growable column's length follows its buffer.
      const old = this.leafOfId.length;
      const n = grownCapacity(old, id + 1);
      this.leafOfId = grownArray(this.leafOfId, n).fill(NOT_IN_TREE, old);
      this.posOfId = grownArray(this.posOfId, n);
    }
    this.attach(id, this.routeAt(pool, id * f));
    return id;
  }

  /** Removes one sample in O(1). Returns false (and does nothing) if it is not in the tree. */
  take(id: number): boolean {
    if (!this.has(id)) return false;
    this.detach(id);
    this.table.remove(id);
    return true;
  }

  /** Removes every sample of this URL (fetched through another sample); returns how many. */
  removeUrl(url: string): number {
    return this.table.removeUrl(url, this.detachId);
  }

  /** Removes every sample of this domain (at its page limit b); returns how many. */
  purgeDomain(domain: string): number {
    return this.table.removeDomain(domain, this.detachId);
  }

  /**
   * The action set of a step: one representative per non-empty leaf, without stale samples (URL
   * fetched, domain closed for good: purged, and representatives drawn again, up to
   * `maxDrawRounds` rounds) and without samples that cannot be fetched right now (host busy,
   * domain full with fetches in flight: kept for later).
   * @throws TresError `TRES_TREE_NO_RNG` if the tree was built without an rng.
   */
  draw(ctx: DrawContext): number[] {
    const rng = this.rng;
    if (!rng)
      throw new TresError('TRES_TREE_NO_RNG', 'TreeFrontier.draw needs the rng given at construction');
    const t = this.table;
    // The loop's answers for a host or a domain do not change during a draw: ask once per host
    // and domain (many representatives share one), not once per representative.
    const hostMemo = memo(this.hostMemo, t.hostIdCount);
    const domainMemo = memo(this.domainMemo, t.domainIdCount);
    this.hostMemo = hostMemo;
    this.domainMemo = domainMemo;
    for (let round = 0; round < this.options.maxDrawRounds; round++) {
      let purged = 0;
      const ok: number[] = [];
      for (const id of this.representatives(rng)) {
        // A purge earlier in this loop may have removed a later representative.
        if (!this.has(id)) continue;
        const url = t.url(id);
        if (ctx.isFetched(url)) {
          purged += this.removeUrl(url);
          continue;
        }
        const d = t.domainIdOf(id);
        let dm = domainMemo[d] as number;
        if (dm === UNKNOWN) {
          const domain = t.domain(id);
          dm = ctx.isDomainClosed(domain) ? CLOSED : ctx.isDomainOpen(domain) ? OPEN : FULL;
          domainMemo[d] = dm;
        }
        if (dm === CLOSED) {
          purged += this.purgeDomain(t.domain(id));
          continue;
        }
        const h = t.hostIdOf(id);
        let hm = hostMemo[h] as number;
        if (hm === UNKNOWN) {
          hm = ctx.isHostReady(t.host(id)) ? OPEN : FULL;
          hostMemo[h] = hm;
        }
        if (hm === OPEN && dm === OPEN) ok.push(id);
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
    return this.table.size;
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
    const leaf = this.routeAt(x, 0);
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
   * What the tree has learned: every node's rule (by node id) and each leaf's experiences, for a
   * checkpoint. Frontier samples are not in it (a resume adds them again).
   */
  learnedState(): TreeLearnedState {
    return {
      nodes: this.nodes.map((node): TreeNodeState => {
        if (node.feature >= 0)
          return {
            feature: node.feature,
            threshold: node.threshold,
            left: node.left!.id,
            right: node.right!.id,
          };
        return node.experiences === null ? {} : node.experiences.snapshot();
      }),
    };
  }

  /**
   * Rebuilds the rules and experiences of a {@link TreeFrontier.learnedState} into this tree,
   * which must hold no sample and no experience yet (a resume, before its replay).
   * @throws ConfigError if the tree is not new or the state does not fit its feature count.
   */
  loadLearnedState(state: TreeLearnedState): void {
    if (this.nodes.length !== 1 || this.experiences > 0 || this.table.size > 0)
      throw new ConfigError('a Tree-Frontier loads a checkpoint only while it is new');
    const f = this.options.featureCount;
    const specs = state.nodes;
    if (specs.length === 0)
      throw new ConfigError('tree checkpoint has no root', { context: { field: 'tree' } });
    const depthOf = new Int32Array(specs.length).fill(-1);
    depthOf[0] = 0;
    // Node ids are creation order: a node's children come after it, so depths are known in order.
    this.nodes.length = 0;
    this.leaves = 0;
    this.experiences = 0;
    this.maxLeafDepth = 0;
    for (let id = 0; id < specs.length; id++) {
      const depth = depthOf[id] as number;
      if (depth < 0)
        throw new ConfigError(`tree checkpoint: node ${id} has no parent before it`, {
          context: { field: 'tree' },
        });
      const node = id === 0 ? this.root : new TreeNode(id, depth);
      this.nodes.push(node);
      const spec = specs[id] as TreeNodeState;
      if ('feature' in spec) {
        if (!(spec.left > id && spec.right > id && spec.left < specs.length && spec.right < specs.length))
          throw new ConfigError(`tree checkpoint: node ${id} has bad children`, {
            context: { field: 'tree' },
          });
        node.feature = spec.feature;
        node.threshold = spec.threshold;
        depthOf[spec.left] = depth + 1;
        depthOf[spec.right] = depth + 1;
        continue;
      }
      this.leaves++;
      this.maxLeafDepth = Math.max(this.maxLeafDepth, depth);
      if (spec.rows === undefined || spec.rewards === undefined) continue;
      if (spec.rows.length !== spec.rewards.length * f)
        throw new ConfigError(`tree checkpoint: leaf ${id} rows do not have ${f} features`, {
          context: { field: 'tree' },
        });
      node.experiences = new ExperienceSet(f, Math.max(4, spec.rewards.length));
      for (let i = 0; i < spec.rewards.length; i++)
        node.experiences.add(spec.rows.subarray(i * f, i * f + f), spec.rewards[i] as number);
      this.experiences += spec.rewards.length;
    }
    for (let id = 0; id < specs.length; id++) {
      const spec = specs[id] as TreeNodeState;
      if (!('feature' in spec)) continue;
      const node = this.nodes[id] as TreeNode;
      node.left = this.nodes[spec.left] as TreeNode;
      node.right = this.nodes[spec.right] as TreeNode;
    }
  }

  /**
   * Moves a sample whose vector changed in place (`table.x`, e.g. refreshed domain features) to
   * the leaf it now routes to, in O(depth). Returns false if the sample is not in the tree.
   * @throws TresError `TRES_TREE_BAD_VECTOR` if the new vector holds a NaN.
   */
  reroute(id: number): boolean {
    if (!this.has(id)) return false;
    const f = this.options.featureCount;
    checkTreeVector(this.table.x.subarray(id * f, id * f + f), f);
    const leaf = this.routeAt(this.table.x, id * f);
    if (leaf.id !== this.leafOfId[id]) {
      this.detach(id);
      this.attach(id, leaf);
    }
    return true;
  }

  /**
   * Tree-Frontier sampling (Algorithm 2 line 4): one sample id drawn uniformly from each leaf
   * that has frontier samples, in ascending leaf id order; one `rng.int` draw per leaf. The
   * samples stay in the tree. O(non-empty leaves).
   */
  representatives(rng: Rng): number[] {
    const leaves = this.nonEmpty.items;
    const out = new Array<number>(leaves.length);
    for (let i = 0; i < leaves.length; i++) {
      const slots = (leaves[i] as TreeNode).slots;
      out[i] = slots[rng.int(slots.length)] as number;
    }
    return out;
  }

  /**
   * The Tree-Random baseline's choice (journal section 3.2): a uniformly random non-empty leaf,
   * then a uniformly random sample of it; undefined if the frontier is empty. Stays in the tree.
   */
  randomSample(rng: Rng): number | undefined {
    if (this.nonEmpty.length === 0) return undefined;
    const slots = (this.nonEmpty.items[rng.int(this.nonEmpty.length)] as TreeNode).slots;
    return slots[rng.int(slots.length)] as number;
  }

  /** Every frontier sample id, ascending. Do not add or remove while iterating. */
  samples(): IterableIterator<number> {
    return this.table.ids();
  }

  /** True if sample `id` is in the tree. */
  has(id: number): boolean {
    return id >= 0 && id < this.leafOfId.length && this.leafOfId[id] !== NOT_IN_TREE;
  }

  /** Number of frontier samples with this URL. */
  countUrl(url: string): number {
    return this.table.countUrl(url);
  }

  /** Number of frontier samples of this domain. */
  countDomain(domain: string): number {
    return this.table.countDomain(domain);
  }

  /** The leaf id a vector routes to (O(depth)). */
  leafOf(x: Float32Array): number {
    return this.routeAt(x, 0).id;
  }

  /** The id of the leaf holding sample `id`, or undefined if it is not in the tree. */
  leafOfSample(id: number): number | undefined {
    return this.has(id) ? this.leafOfId[id] : undefined;
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
   * URL and domain groups, non-empty leaf list, experiences, depths and counts). For tests: O(size).
   * @throws TresError `TRES_TREE_INVARIANT` describing the first violation found.
   */
  checkInvariants(): void {
    checkTreeInvariants({
      root: this.root,
      nodes: this.nodes,
      table: this.table,
      leafOfId: this.leafOfId,
      posOfId: this.posOfId,
      nonEmpty: this.nonEmpty.items,
      leafCount: this.leaves,
      experienceCount: this.experiences,
      depth: this.maxLeafDepth,
      maxDepth: this.options.maxDepth,
      route: (x) => this.routeAt(x, 0),
    });
  }

  private newNode(depth: number): TreeNode {
    const node = new TreeNode(this.nodes.length, depth);
    this.nodes.push(node);
    return node;
  }

  /** The leaf that the vector at `x[offset ..]` routes to. */
  private routeAt(x: Float32Array, offset: number): TreeNode {
    let node = this.root;
    while (node.feature >= 0)
      node = (x[offset + node.feature] as number) <= node.threshold ? node.left! : node.right!;
    return node;
  }

  /** Turns `leaf` into an internal node with rule x[feature] <= threshold and two new leaves. */
  private split(leaf: TreeNode, feature: number, threshold: number): void {
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
    const pool = this.table.x;
    const f = this.options.featureCount;
    for (const id of slots) {
      const side = (pool[id * f + feature] as number) <= threshold ? left : right;
      this.leafOfId[id] = side.id;
      this.posOfId[id] = side.slots.length;
      side.slots.push(id);
    }
    if (left.slots.length > 0) this.nonEmpty.insert(left);
    if (right.slots.length > 0) this.nonEmpty.insert(right);
    this.leaves++;
    this.maxLeafDepth = Math.max(this.maxLeafDepth, left.depth);
  }

  private attach(id: number, leaf: TreeNode): void {
    this.leafOfId[id] = leaf.id;
    this.posOfId[id] = leaf.slots.length;
    leaf.slots.push(id);
    if (leaf.slots.length === 1) this.nonEmpty.insert(leaf);
  }

  /** Swap-removes the sample from its leaf's array (the table's groups are the caller's). */
  private detach(id: number): void {
    const leaf = this.nodes[this.leafOfId[id] as number] as TreeNode;
    const slots = leaf.slots;
    const last = slots.pop() as number;
    if (last !== id) {
      const pos = this.posOfId[id] as number;
      slots[pos] = last;
      this.posOfId[last] = pos;
    }
    this.leafOfId[id] = NOT_IN_TREE;
    if (slots.length === 0) this.nonEmpty.remove(leaf);
  }
}
