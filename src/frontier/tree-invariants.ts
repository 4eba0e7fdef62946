/**
 * The full consistency check of a {@link TreeFrontier}, kept apart from the hot code. For tests
 * and diagnostics: it walks every node, sample and experience, O(size + experiences * depth).
 */
import { TresError } from '../common/errors.js';
import type { SlotGroups } from './tree-groups.js';
import type { Slot, TreeNode, TreeSample } from './tree-types.js';

/** The internals of a tree that the check reads. */
export interface TreeInternals<S extends TreeSample> {
  root: TreeNode<S>;
  nodes: readonly TreeNode<S>[];
  slotOf: ReadonlyMap<S, Slot<S>>;
  byUrl: SlotGroups<Slot<S>>;
  byDomain: SlotGroups<Slot<S>>;
  nonEmpty: readonly TreeNode<S>[];
  leafCount: number;
  experienceCount: number;
  depth: number;
  maxDepth: number;
  route(x: Float32Array): TreeNode<S>;
}

function fail(message: string): never {
  throw new TresError('TRES_TREE_INVARIANT', `Tree-Frontier invariant broken: ${message}`);
}

/** Walks the nodes from the root: depths, ids, leaf count, experiences in the right leaf. */
function checkNodes<S extends TreeSample>(t: TreeInternals<S>): TreeNode<S>[] {
  const leaves: TreeNode<S>[] = [];
  let experiences = 0;
  let deepest = 0;
  const stack: TreeNode<S>[] = [t.root];
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

function checkGroups<S extends TreeSample>(
  t: TreeInternals<S>,
  groups: SlotGroups<Slot<S>>,
  name: 'url' | 'domain',
): void {
  let total = 0;
  const pos = name === 'url' ? 'urlPos' : 'domainPos';
  for (const [key, group] of groups.entries()) {
    if (group.length === 0) fail(`empty ${name} group ${key}`);
    total += group.length;
    group.forEach((slot, i) => {
      if (slot.sample[name] !== key) fail(`${name} group ${key} holds a sample of ${slot.sample[name]}`);
      if (slot[pos] !== i) fail(`${name} position of ${slot.sample.url} is ${slot[pos]}, listed at ${i}`);
      if (t.slotOf.get(slot.sample) !== slot) fail(`${name} group ${key} lists a removed sample`);
    });
  }
  if (total !== t.slotOf.size) fail(`${name} index lists ${total} samples, tree has ${t.slotOf.size}`);
}

/**
 * Checks every invariant of a Tree-Frontier.
 * @throws TresError `TRES_TREE_INVARIANT` describing the first violation found.
 */
export function checkTreeInvariants<S extends TreeSample>(t: TreeInternals<S>): void {
  const leaves = checkNodes(t);
  let inLeaves = 0;
  for (const leaf of leaves) {
    inLeaves += leaf.slots.length;
    leaf.slots.forEach((slot, i) => {
      if (slot.leaf !== leaf)
        fail(`sample ${slot.sample.url} listed in leaf ${leaf.id}, records ${slot.leaf.id}`);
      if (slot.leafPos !== i) fail(`sample ${slot.sample.url} position ${slot.leafPos}, listed at ${i}`);
      if (t.slotOf.get(slot.sample) !== slot) fail(`leaf ${leaf.id} lists a sample the tree does not know`);
    });
  }
  if (inLeaves !== t.slotOf.size) fail(`leaves hold ${inLeaves} samples, index has ${t.slotOf.size}`);
  for (const [sample, slot] of t.slotOf) {
    if (slot.sample !== sample) fail(`slot of ${sample.url} belongs to another sample`);
    if (slot.leaf.feature >= 0) fail(`sample ${sample.url} sits in internal node ${slot.leaf.id}`);
    const target = t.route(sample.x);
    if (target !== slot.leaf)
      fail(`sample ${sample.url} sits in leaf ${slot.leaf.id}, rules lead to ${target.id}`);
  }
  checkGroups(t, t.byUrl, 'url');
  checkGroups(t, t.byDomain, 'domain');
  const expected = leaves.filter((l) => l.slots.length > 0).sort((a, b) => a.id - b.id);
  if (expected.length !== t.nonEmpty.length || expected.some((l, i) => t.nonEmpty[i] !== l))
    fail(`non-empty leaf list [${t.nonEmpty.map((l) => l.id)}] != [${expected.map((l) => l.id)}]`);
}
