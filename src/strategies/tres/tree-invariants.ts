/**
 * The full consistency check of a {@link TreeFrontier}, kept apart from the hot code. For tests
 * and diagnostics: it walks every node, sample and experience, O(size + experiences * depth).
 */
import { TresError } from '../../common/index.js';
import type { SampleTable } from '../../frontier/index.js';
import type { TreeNode } from './tree-types.js';

/** The internals of a tree that the check reads. */
export interface TreeInternals {
  root: TreeNode;
  nodes: readonly TreeNode[];
  table: SampleTable;
  /** Leaf node id per sample id (-1 if none) and position in the leaf's array. */
  leafOfId: Int32Array;
  posOfId: Int32Array;
  nonEmpty: readonly TreeNode[];
  leafCount: number;
  experienceCount: number;
  depth: number;
  maxDepth: number;
  route(x: Float32Array): TreeNode;
}

function fail(message: string): never {
  throw new TresError('TRES_TREE_INVARIANT', `Tree-Frontier invariant broken: ${message}`);
}

/** Walks the nodes from the root: depths, ids, leaf count, experiences in the right leaf. */
function checkNodes(t: TreeInternals): TreeNode[] {
  const leaves: TreeNode[] = [];
  let experiences = 0;
  let deepest = 0;
  const stack: TreeNode[] = [t.root];
  let visited = 0;
  while (stack.length > 0) {
    const node = stack.pop()!;
    visited++;
    if (t.nodes[node.id] !== node) fail(`node ${node.id} is not registered under its id`);
    if (node.depth > t.maxDepth) fail(`node ${node.id} at depth ${node.depth} > maxDepth ${t.maxDepth}`);
    if (node.feature >= 0) {
      const { left, right } = node;
      if (!left || !right) fail(`internal node ${node.id} lacks a child`);
      if (left.depth !== node.depth + 1 || right.depth !== node.depth + 1)
        fail(`children of node ${node.id} are not one level deeper`);
      if (node.slots.length > 0 || node.experiences) fail(`internal node ${node.id} holds samples`);
      stack.push(right, left);
      continue;
    }
    leaves.push(node);
    deepest = Math.max(deepest, node.depth);
    const e = node.experiences;
    if (!e) continue;
    experiences += e.count;
    let sum = 0;
    for (let i = 0; i < e.count; i++) {
      if (t.route(e.row(i)) !== node) fail(`experience ${i} of leaf ${node.id} routes elsewhere`);
      sum += e.reward(i);
    }
    if (Math.abs(sum - e.rewardSum) > 1e-9 * Math.max(1, Math.abs(sum)))
      fail(`leaf ${node.id} reward sum ${e.rewardSum} != ${sum}`);
  }
  if (visited !== t.nodes.length) fail(`${t.nodes.length - visited} nodes unreachable from the root`);
  if (leaves.length !== t.leafCount) fail(`leafCount ${t.leafCount} but ${leaves.length} leaves`);
  if (experiences !== t.experienceCount)
    fail(`experienceCount ${t.experienceCount} but ${experiences} stored`);
  if (deepest !== t.depth) fail(`depth ${t.depth} but deepest leaf at ${deepest}`);
  return leaves;
}

function checkGroups(t: TreeInternals, ids: number[], name: 'url' | 'domain'): void {
  const keys = new Set(ids.map((id) => (name === 'url' ? t.table.url(id) : t.table.domain(id))));
  let total = 0;
  for (const key of keys) {
    const group = t.table.group(name, key);
    total += group.length;
    for (const id of group) {
      const own = name === 'url' ? t.table.url(id) : t.table.domain(id);
      if (own !== key) fail(`${name} group ${key} holds a sample of ${own}`);
      if (t.leafOfId[id] === -1) fail(`${name} group ${key} lists removed sample ${id}`);
    }
    if (name === 'domain' && t.table.countDomain(key) !== group.length)
      fail(`domain ${key} counts ${t.table.countDomain(key)} samples, lists ${group.length}`);
  }
  if (total !== ids.length) fail(`${name} groups list ${total} samples, tree has ${ids.length}`);
}

/**
 * Checks every invariant of a Tree-Frontier.
 * @throws TresError `TRES_TREE_INVARIANT` describing the first violation found.
 */
export function checkTreeInvariants(t: TreeInternals): void {
  const leaves = checkNodes(t);
  const f = t.table.featureCount;
  let inLeaves = 0;
  for (const leaf of leaves) {
    inLeaves += leaf.slots.length;
    leaf.slots.forEach((id, i) => {
      if (t.leafOfId[id] !== leaf.id)
        fail(`sample ${id} listed in leaf ${leaf.id}, records ${t.leafOfId[id]}`);
      if (t.posOfId[id] !== i) fail(`sample ${id} position ${t.posOfId[id]}, listed at ${i}`);
      if (!t.table.has(id)) fail(`leaf ${leaf.id} lists sample ${id} the table does not hold`);
    });
  }
  const ids = [...t.table.ids()];
  if (inLeaves !== ids.length || t.table.size !== ids.length)
    fail(`leaves hold ${inLeaves} samples, table has ${ids.length} (size ${t.table.size})`);
  for (const id of ids) {
    const leaf = t.nodes[t.leafOfId[id] as number];
    if (!leaf) fail(`sample ${id} is in no leaf`);
    if (leaf.feature >= 0) fail(`sample ${id} sits in internal node ${leaf.id}`);
    const target = t.route(t.table.x.subarray(id * f, id * f + f));
    if (target !== leaf)
      fail(`sample ${id} (${t.table.url(id)}) sits in leaf ${leaf.id}, rules lead to ${target.id}`);
  }
  checkGroups(t, ids, 'url');
  checkGroups(t, ids, 'domain');
  const expected = leaves.filter((l) => l.slots.length > 0).sort((a, b) => a.id - b.id);
  if (expected.length !== t.nonEmpty.length || expected.some((l, i) => t.nonEmpty[i] !== l))
    fail(`non-empty leaf list [${t.nonEmpty.map((l) => l.id)}] != [${expected.map((l) => l.id)}]`);
}
