/**
 * The synchronous method's frontier (TRES journal, Theorem 1) on a {@link SampleTable}: every
 * ready sample is a candidate, in insertion order, so the agent can take the exact argmax of Q
 * over the whole frontier. O(size) per draw. Insertion order is kept in a linked list by id
 * (ids are reused, so id order is not insertion order).
 */
import { type DrawContext, type IndexedFrontier, isIdReady } from './frontier.js';
import { type SampleInput, SampleTable } from './sample-table.js';

const NONE = -1;

/** Every ready sample a candidate, in insertion order. */
export class FullIndexedFrontier implements IndexedFrontier {
  readonly table: SampleTable;
  private next = new Int32Array(1024);
  private prev = new Int32Array(1024);
  private isIn = new Uint8Array(1024);
  private head = NONE;
  private tail = NONE;
  private readonly unlinkId = (id: number) => this.unlink(id);

  /** @param featureCount floats per state-action vector. @param isRecycleDeferred see {@link SampleTable}. */
  constructor(featureCount: number, isRecycleDeferred = false) {
    this.table = new SampleTable({ featureCount, isRecycleDeferred });
  }

  get size(): number {
    return this.table.size;
  }

  add(input: SampleInput, parent: number, x?: ArrayLike<number>): number {
    const id = this.table.add(input, parent);
    const f = this.table.featureCount;
    if (x) for (let i = 0; i < f; i++) this.table.x[id * f + i] = x[i] as number;
    if (id >= this.next.length) {
      const n = Math.max(id + 1, Math.ceil(this.next.length * 1.5));
      const next = new Int32Array(n);
      next.set(this.next);
      const prev = new Int32Array(n);
      prev.set(this.prev);
      const isIn = new Uint8Array(n);
      isIn.set(this.isIn);
      this.next = next;
      this.prev = prev;
      this.isIn = isIn;
    }
    this.prev[id] = this.tail;
    this.next[id] = NONE;
    if (this.tail === NONE) this.head = id;
    else this.next[this.tail] = id;
    this.tail = id;
    this.isIn[id] = 1;
    return id;
  }

  take(id: number): boolean {
    if (id < 0 || id >= this.isIn.length || this.isIn[id] === 0) return false;
    this.unlink(id);
    this.table.remove(id);
    return true;
  }

  removeUrl(url: string): number {
    return this.table.removeUrl(url, this.unlinkId);
  }

  purgeDomain(domain: string): number {
    return this.table.removeDomain(domain, this.unlinkId);
  }

  draw(ctx: DrawContext): number[] {
    const t = this.table;
    const stale: number[] = [];
    const ready: number[] = [];
    for (let id = this.head; id !== NONE; id = this.next[id] as number) {
      if (ctx.isFetched(t.url(id)) || ctx.isDomainClosed(t.domain(id))) stale.push(id);
      else if (isIdReady(ctx, t, id)) ready.push(id);
    }
    // Read both keys before purging: a purge may remove later stale samples (their ids stay unused).
    const keys = stale.map((id) => [t.url(id), t.domain(id)] as const);
    for (const [url, domain] of keys) {
      if (ctx.isFetched(url)) this.removeUrl(url);
      else if (ctx.isDomainClosed(domain)) this.purgeDomain(domain);
    }
    return ready;
  }

  stats(): Record<string, number> {
    return { 'frontier/size': this.table.size };
  }

  private unlink(id: number): void {
    const p = this.prev[id] as number;
    const n = this.next[id] as number;
    if (p === NONE) this.head = n;
    else this.next[p] = n;
    if (n === NONE) this.tail = p;
    else this.prev[n] = p;
    this.isIn[id] = 0;
  }
}
