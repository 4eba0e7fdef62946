/**
 * Two frontiers without order, on one bag of samples indexed by URL and domain (every removal a
 * swap-remove, as in the Tree-Frontier):
 * - {@link FullFrontier}: every ready sample is a candidate; the synchronous method of the TRES
 *   paper (Theorem 1) takes the exact argmax of Q over them. O(size) per draw.
 * - {@link RandomFrontier}: one uniformly random ready sample; the papers' Random baseline.
 */
import type { Rng } from '../common/rng.js';
import { type DrawContext, type Frontier, type FrontierSample, isReady } from './frontier.js';
import { SlotGroups } from './tree-groups.js';

interface BagSlot<S> {
  readonly sample: S;
  /** Index in the bag's array. */
  pos: number;
  urlPos: number;
  domainPos: number;
}

/** The shared bag: membership, URL and domain indexes, O(1) removal. */
abstract class BagFrontier<S extends FrontierSample> implements Frontier<S> {
  /** Slots by sample, in insertion order (the order {@link FullFrontier} draws in). */
  protected readonly slotOf = new Map<S, BagSlot<S>>();
  /** The same slots in an array, for uniform draws. */
  protected readonly slots: BagSlot<S>[] = [];
  private readonly byUrl = new SlotGroups<BagSlot<S>>('urlPos');
  private readonly byDomain = new SlotGroups<BagSlot<S>>('domainPos');

  get size(): number {
    return this.slots.length;
  }

  add(sample: S): void {
    if (this.slotOf.has(sample)) return;
    const slot: BagSlot<S> = { sample, pos: this.slots.length, urlPos: 0, domainPos: 0 };
    this.slots.push(slot);
    this.slotOf.set(sample, slot);
    this.byUrl.add(sample.url, slot);
    this.byDomain.add(sample.domain, slot);
  }

  take(sample: S): boolean {
    const slot = this.slotOf.get(sample);
    if (!slot) return false;
    this.forget(slot);
    this.byUrl.remove(sample.url, slot);
    this.byDomain.remove(sample.domain, slot);
    return true;
  }

  removeUrl(url: string): number {
    const group = this.byUrl.take(url);
    for (const slot of group) {
      this.forget(slot);
      this.byDomain.remove(slot.sample.domain, slot);
    }
    return group.length;
  }

  purgeDomain(domain: string): number {
    const group = this.byDomain.take(domain);
    for (const slot of group) {
      this.forget(slot);
      this.byUrl.remove(slot.sample.url, slot);
    }
    return group.length;
  }

  abstract draw(ctx: DrawContext): S[];

  stats(): Record<string, number> {
    return { 'frontier/size': this.slots.length };
  }

  /** Every sample, in insertion order. Do not add or remove while iterating. */
  samples(): IterableIterator<S> {
    return this.slotOf.keys();
  }

  /** Drops `sample` if it is stale (URL fetched, domain closed); returns how many samples went. */
  protected purgeIfStale(ctx: DrawContext, sample: S): number {
    if (ctx.isFetched(sample.url)) return this.removeUrl(sample.url);
    if (ctx.isDomainClosed(sample.domain)) return this.purgeDomain(sample.domain);
    return 0;
  }

  private forget(slot: BagSlot<S>): void {
    const last = this.slots.pop()!;
    if (last !== slot) {
      this.slots[slot.pos] = last;
      last.pos = slot.pos;
    }
    this.slotOf.delete(slot.sample);
  }
}

/** Every ready sample is a candidate, in insertion order (the synchronous method's frontier). */
export class FullFrontier<S extends FrontierSample> extends BagFrontier<S> {
  draw(ctx: DrawContext): S[] {
    const stale: S[] = [];
    const ready: S[] = [];
    for (const sample of this.slotOf.keys()) {
      if (ctx.isFetched(sample.url) || ctx.isDomainClosed(sample.domain)) stale.push(sample);
      else if (isReady(ctx, sample)) ready.push(sample);
    }
    for (const sample of stale) this.purgeIfStale(ctx, sample);
    return ready;
  }
}

/**
 * One uniformly random ready sample per draw. Random picks are tried first (cheap when most
 * hosts are ready, as on a sandbox without delays); after `maxRandomTries` misses the bag is
 * scanned once from a random position, so a draw never misses a ready sample.
 */
export class RandomFrontier<S extends FrontierSample> extends BagFrontier<S> {
  constructor(
    private readonly rng: Rng,
    private readonly maxRandomTries = 32,
  ) {
    super();
  }

  draw(ctx: DrawContext): S[] {
    for (let i = 0; i < this.maxRandomTries && this.slots.length > 0; i++) {
      const sample = (this.slots[this.rng.int(this.slots.length)] as BagSlot<S>).sample;
      if (this.purgeIfStale(ctx, sample) > 0) continue;
      if (isReady(ctx, sample)) return [sample];
    }
    // Scan: collect first (purging reorders the array), then purge.
    const n = this.slots.length;
    if (n === 0) return [];
    const start = this.rng.int(n);
    const stale: S[] = [];
    let found: S | undefined;
    for (let k = 0; k < n && found === undefined; k++) {
      const sample = (this.slots[(start + k) % n] as BagSlot<S>).sample;
      if (ctx.isFetched(sample.url) || ctx.isDomainClosed(sample.domain)) stale.push(sample);
      else if (isReady(ctx, sample)) found = sample;
    }
    for (const sample of stale) this.purgeIfStale(ctx, sample);
    return found === undefined ? [] : [found];
  }
}
