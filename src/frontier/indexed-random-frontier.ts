/**
 * The Random baseline's frontier ({@link RandomFrontier}) on a {@link SampleTable}: one uniformly
 * random ready sample per draw, from a dense array of ids kept in the same order as the object
 * bag (append on add, swap-remove on removal, URL and domain purges in group order), so seeded
 * runs draw the same URLs. No object per sample.
 */
import type { Rng } from '../common/index.js';
import { type DrawContext, type IndexedFrontier, isIdReady } from './frontier.js';
import { type SampleInput, SampleTable } from './sample-table.js';

/** One uniformly random ready sample per draw (random tries first, then one scan). */
export class IndexedRandomFrontier implements IndexedFrontier {
  readonly table = new SampleTable();
  /** Live ids; `pos[id]` is an id's index here. */
  private readonly dense: number[] = [];
  private pos = new Int32Array(1024);
  private readonly forgetId = (id: number) => this.forget(id);

  /** @param maxRandomTries random picks before one scan from a random position. */
  constructor(
    private readonly rng: Rng,
    private readonly maxRandomTries = 32,
  ) {}

  get size(): number {
    return this.dense.length;
  }

  add(input: SampleInput, parent: number): number {
    const id = this.table.add(input, parent);
    if (id >= this.pos.length) {
      const pos = new Int32Array(Math.max(id + 1, Math.ceil(this.pos.length * 1.5)));
      pos.set(this.pos);
      this.pos = pos;
    }
    this.pos[id] = this.dense.length;
    this.dense.push(id);
    return id;
  }

  take(id: number): boolean {
    if (!this.table.has(id)) return false;
    this.forget(id);
    this.table.remove(id);
    return true;
  }

  removeUrl(url: string): number {
    return this.table.removeUrl(url, this.forgetId);
  }

  purgeDomain(domain: string): number {
    return this.table.removeDomain(domain, this.forgetId);
  }

  draw(ctx: DrawContext): number[] {
    const t = this.table;
    for (let i = 0; i < this.maxRandomTries && this.dense.length > 0; i++) {
      const id = this.dense[this.rng.int(this.dense.length)] as number;
      if (this.purgeIfStale(ctx, id) > 0) continue;
      if (isIdReady(ctx, t, id)) return [id];
    }
    // Scan: collect first (purging reorders the array), then purge.
    const n = this.dense.length;
    if (n === 0) return [];
    const start = this.rng.int(n);
    const stale: [string, string][] = [];
    let found = -1;
    for (let k = 0; k < n && found < 0; k++) {
      const id = this.dense[(start + k) % n] as number;
      if (ctx.isFetched(t.url(id)) || ctx.isDomainClosed(t.domain(id))) stale.push([t.url(id), t.domain(id)]);
      else if (isIdReady(ctx, t, id)) found = id;
    }
    for (const [url, domain] of stale) {
      if (ctx.isFetched(url)) this.removeUrl(url);
      else if (ctx.isDomainClosed(domain)) this.purgeDomain(domain);
    }
    return found < 0 ? [] : [found];
  }

  stats(): Record<string, number> {
    return { 'frontier/size': this.dense.length };
  }

  /** Drops `id` if it is stale (URL fetched, domain closed); returns how many samples went. */
  private purgeIfStale(ctx: DrawContext, id: number): number {
    const url = this.table.url(id);
    if (ctx.isFetched(url)) return this.removeUrl(url);
    const domain = this.table.domain(id);
    if (ctx.isDomainClosed(domain)) return this.purgeDomain(domain);
    return 0;
  }

  /** Swap-removes `id` from the dense array (the table is the caller's). */
  private forget(id: number): void {
    const last = this.dense.pop() as number;
    if (last !== id) {
      const p = this.pos[id] as number;
      this.dense[p] = last;
      this.pos[last] = p;
    }
  }
}
