import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SampleTable } from './sample-table.js';

/**
 * What SampleTable did before its columns grew in place, as a model: ids from a LIFO free list
 * (with isRecycleDeferred, removed ids wait for recycle), else the next new one; URL and domain
 * groups in swap-remove order (a removed member's place taken by the group's last); columns by id.
 */
class TableModel {
  readonly rows = new Map<
    number,
    { url: string; host: string; domain: string; depth: number; parent: number }
  >();
  readonly x = new Map<number, number[]>();
  readonly key = new Map<number, number>();
  readonly urlGroups = new Map<string, number[]>();
  readonly domainGroups = new Map<string, number[]>();
  private readonly free: number[] = [];
  private readonly retired: number[] = [];
  used = 0;
  constructor(private readonly isDeferred: boolean) {}

  add(url: string, domain: string, depth: number, parent: number): number {
    const id =
      this.free.pop() ??
      (!this.isDeferred && this.retired.length > 0 ? (this.retired.pop() as number) : this.used++);
    this.rows.set(id, { url, host: `www.${domain}`, domain, depth, parent });
    push(this.urlGroups, url, id);
    push(this.domainGroups, domain, id);
    return id;
  }
  remove(id: number): void {
    const row = this.rows.get(id) as { url: string; domain: string };
    swapRemove(this.urlGroups, row.url, id);
    swapRemove(this.domainGroups, row.domain, id);
    this.rows.delete(id);
    if (this.isDeferred) this.retired.push(id);
    else this.free.push(id);
  }
  removeGroup(kind: 'url' | 'domain', key: string): number[] {
    const ids = [...((kind === 'url' ? this.urlGroups : this.domainGroups).get(key) ?? [])];
    for (const id of ids) this.remove(id);
    return ids;
  }
  recycle(): void {
    this.free.push(...this.retired);
    this.retired.length = 0;
  }
}

function push(groups: Map<string, number[]>, key: string, id: number): void {
  const g = groups.get(key);
  if (g) g.push(id);
  else groups.set(key, [id]);
}

function swapRemove(groups: Map<string, number[]>, key: string, id: number): void {
  const g = groups.get(key) as number[];
  const last = g.pop() as number;
  if (last !== id) g[g.indexOf(id)] = last;
  if (g.length === 0) groups.delete(key);
}

type Op =
  | { kind: 'add'; url: number; domain: number; depth: number }
  | { kind: 'remove' | 'removeUrl' | 'removeDomain'; pick: number }
  | { kind: 'recycle' };

const F = 3;

/** Runs `ops` on a table and the model and checks everything either can tell. */
function checkAgainstModel(ops: readonly Op[], isDeferred: boolean, isUrlIndexed: boolean): void {
  const table = new SampleTable({
    featureCount: F,
    initialCapacity: 16,
    isRecycleDeferred: isDeferred,
    isUrlIndexed,
  });
  table.useKeys();
  const model = new TableModel(isDeferred);
  const live = () => [...model.rows.keys()].sort((a, b) => a - b); // ascending, as table.ids()
  let step = 0;
  /** What the table answered then what the model did, step by step (compared at the end). */
  const steps: unknown[] = [];
  for (const op of ops) {
    step++;
    if (op.kind === 'add') {
      const url = `https://d${op.domain}.test/${op.url}`;
      const domain = `d${op.domain}.test`;
      const id = table.add({ url, host: `www.${domain}`, domain, depth: op.depth }, step);
      steps.push(id, model.add(url, domain, op.depth, step));
      const x = [step, -step, step / 2];
      table.x.set(x, id * F);
      table.key[id] = step * 3;
      model.x.set(id, x);
      model.key.set(id, step * 3);
    } else if (op.kind === 'recycle') {
      table.recycle();
      model.recycle();
    } else {
      const ids = [...model.rows.keys()];
      if (ids.length === 0) continue;
      const id = ids[op.pick % ids.length] as number;
      const row = model.rows.get(id) as { url: string; domain: string };
      if (op.kind === 'remove') {
        table.remove(id);
        model.remove(id);
      } else if (op.kind === 'removeDomain' || !isUrlIndexed) {
        const seen: number[] = [];
        const n = table.removeDomain(row.domain, (i) => seen.push(i));
        steps.push([n, ...seen], [seen.length, ...model.removeGroup('domain', row.domain)]);
      } else {
        const seen: number[] = [];
        const n = table.removeUrl(row.url, (i) => seen.push(i));
        steps.push([n, ...seen], [seen.length, ...model.removeGroup('url', row.url)]);
      }
    }
  }
  // One comparison of everything (an expect per sample is slow in bulk).
  const got: unknown[] = [steps.filter((_, i) => i % 2 === 0), [...table.ids()], table.size];
  const want: unknown[] = [steps.filter((_, i) => i % 2 === 1), live(), model.rows.size];
  for (const [id, row] of model.rows) {
    got.push([
      table.has(id),
      table.url(id),
      table.host(id),
      table.domain(id),
      table.depth(id),
      table.parent(id),
      [...table.vector(id)],
      table.key[id],
    ]);
    want.push([
      true,
      row.url,
      row.host,
      row.domain,
      row.depth,
      row.parent,
      model.x.get(id),
      model.key.get(id),
    ]);
  }
  for (const [domain, group] of model.domainGroups) {
    got.push([table.group('domain', domain), table.countDomain(domain)]);
    want.push([group, group.length]);
  }
  if (isUrlIndexed) {
    got.push(table.urlCount);
    want.push(model.urlGroups.size);
    for (const [url, group] of model.urlGroups) {
      got.push([table.group('url', url), table.countUrl(url)]);
      want.push([group, group.length]);
    }
  }
  expect(got).toEqual(want);
}

const opArb = (urls: number): fc.Arbitrary<Op> =>
  fc.oneof(
    {
      weight: 12,
      arbitrary: fc.record({
        kind: fc.constant('add' as const),
        url: fc.nat(urls - 1),
        domain: fc.oneof(fc.nat(5), fc.nat(149)),
        depth: fc.nat(9),
      }),
    },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constantFrom('removeUrl' as const, 'removeDomain' as const),
        pick: fc.nat(),
      }),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'recycle' as const }) },
  );

describe('SampleTable across growth', () => {
  it('gives the same ids, columns, vectors, keys and groups as before through adds, removals and recycling, from 16 samples up', () => {
    fc.assert(
      fc.property(
        fc.array(opArb(300), { maxLength: 700, size: 'max' }),
        fc.boolean(),
        fc.boolean(),
        (ops, isDeferred, isUrlIndexed) => checkAgainstModel(ops, isDeferred, isUrlIndexed),
      ),
      { seed: 21, numRuns: 50 },
    );
  });

  it('keeps every column of 3,000 samples while growing from 16 (a dozen growths), the reused ids included', () => {
    const ops: Op[] = [];
    for (let i = 0; i < 3_000; i++) {
      ops.push({ kind: 'add', url: i % 2_000, domain: i % 7 === 0 ? i % 150 : i % 6, depth: i % 10 });
      if (i % 7 === 6) ops.push({ kind: 'remove', pick: i * 31 });
      if (i % 400 === 399) ops.push({ kind: 'removeDomain', pick: i });
    }
    checkAgainstModel(ops, false, true);
    checkAgainstModel(ops, true, true);
  });
});
