/**
 * The priority frontier (see {@link PriorityFrontier}) on a {@link SampleTable}: per-host heaps of
 * sample ids behind one heap of hosts keyed by their best sample, smaller keys first, ties by
 * URL; one candidate per draw, the best ready one; stale samples (URL fetched, domain closed)
 * dropped lazily when they reach a head. The same order and the same draws as the object
 * version, without an object per sample: a sample is its columns (URL string, host
 * and domain ids, depth, parent, key, optionally a vector), about 40 bytes plus its URL string.
 */
import type { Action } from '../types/index.js';
import { BinaryHeap } from './binary-heap.js';
import type { DrawContext, IndexedFrontier } from './frontier.js';
import { type SampleInput, SampleTable } from './sample-table.js';
import { grownArray } from './slice-pool.js';

interface HostQueue {
  host: string;
  domain: string;
  /** Sample ids by (key, URL). */
  heap: BinaryHeap<number>;
  /** The queue's live entry in the host heap; older entries are stale (lazy invalidation). */
  entry: HostEntry | undefined;
}

/** A snapshot of a host queue's head, as pushed on the host heap. Never mutated. */
interface HostEntry {
  queue: HostQueue;
  headKey: number;
  headUrl: string;
}

const hostLess = (a: HostEntry, b: HostEntry): boolean =>
  a.headKey < b.headKey || (a.headKey === b.headKey && a.headUrl < b.headUrl);

/** Options of {@link IndexedPriorityFrontier}. */
export interface IndexedPriorityFrontierOptions {
  /** Floats of the state-action vector per sample; 0 for none. @default 0 */
  featureCount?: number;
  /** See {@link SampleTable}: removed ids are reused only after `table.recycle()`. @default false */
  isRecycleDeferred?: boolean;
  /**
   * Count the samples of each URL, so that {@link IndexedPriorityFrontier.removeUrl} takes a
   * fetched URL's samples out of {@link IndexedPriorityFrontier.liveSize} at once (they still
   * leave the queues lazily). Costs a map entry per URL. @default false
   */
  isUrlCounted?: boolean;
}

/** Per-host priority queues of sample ids behind one global order. */
export class IndexedPriorityFrontier implements IndexedFrontier {
  readonly table: SampleTable;
  private readonly hosts = new Map<string, HostQueue>();
  private readonly ready = new BinaryHeap<HostEntry>(hostLess);
  /** Sample order: smaller key first, ties by URL. */
  private readonly less = (a: number, b: number): boolean => {
    const key = this.table.key;
    const ka = key[a] as number;
    const kb = key[b] as number;
    return ka < kb || (ka === kb && this.table.url(a) < this.table.url(b));
  };
  private count = 0;
  /** The last drawn sample, out of its queue until taken or drawn past (then it goes back). */
  private held = -1;
  /** With `isUrlCounted`: samples in the frontier per URL, those added since its last removal. */
  private readonly liveByUrl: Map<string, number> | undefined;
  /** With `isUrlCounted`: how many times each URL was removed (a sample added before is dead). */
  private readonly removalsOf = new Map<string, number>();
  /** With `isUrlCounted`: the URL's removal count when each sample was added, by sample id. */
  private addedAfter = new Int32Array(0);
  /** Samples of removed URLs still in the queues. */
  private deadCount = 0;

  constructor(options: IndexedPriorityFrontierOptions = {}) {
    this.table = new SampleTable({
      featureCount: options.featureCount ?? 0,
      isRecycleDeferred: options.isRecycleDeferred ?? false,
      isUrlIndexed: false,
    });
    this.table.useKeys();
    if (options.isUrlCounted === true) this.liveByUrl = new Map();
  }

  /** Number of samples waiting (stale ones included until they are popped). */
  get size(): number {
    return this.count;
  }

  /**
   * Number of samples waiting whose URL was not removed (with `isUrlCounted`; otherwise
   * {@link IndexedPriorityFrontier.size}): a resume's replay removes fetched URLs it never drew,
   * and this counts what a crawl that drew them holds.
   */
  get liveSize(): number {
    return this.count - this.deadCount;
  }

  /** Number of hosts with waiting samples. */
  get hostCount(): number {
    return this.hosts.size;
  }

  /** Adds a sample with ordering `key` (smaller first) and optional vector `x`; returns its id. */
  addWithKey(input: SampleInput, parent: number, key: number, x?: ArrayLike<number>): number {
    const t = this.table;
    const id = t.add(input, parent);
    if (this.liveByUrl) {
      this.liveByUrl.set(input.url, (this.liveByUrl.get(input.url) ?? 0) + 1);
      if (id >= this.addedAfter.length) this.addedAfter = grownArray(this.addedAfter, Math.max(1024, 2 * id));
      this.addedAfter[id] = this.removalsOf.get(input.url) ?? 0;
    }
    t.useKeys();
    t.key[id] = key;
    const f = t.featureCount;
    if (x) for (let i = 0; i < f; i++) t.x[id * f + i] = x[i] as number;
    this.push(id);
    return id;
  }

  /** {@link IndexedPriorityFrontier.addWithKey} with key 0. */
  add(input: SampleInput, parent: number, x?: ArrayLike<number>): number {
    return this.addWithKey(input, parent, 0, x);
  }

  /**
   * Gives every waiting sample the key `keyOf` returns, or drops it (undefined), in place: the
   * draws that follow are those of a new frontier holding the kept samples with their new keys
   * (the order is by key and URL alone), without adding every sample to a new table
   * (`coverage` rescoring its frontier spent as long adding samples as valuing them).
   */
  rekey(keyOf: (id: number) => number | undefined): void {
    this.release();
    const t = this.table;
    const key = t.key;
    const keep = (id: number): boolean => {
      const k = keyOf(id);
      if (k === undefined) {
        this.discard(id);
        return false;
      }
      key[id] = k;
      return true;
    };
    // Every host entry is made again from the re-keyed heads; the old ones would be stale.
    this.ready.clear();
    this.count = 0;
    for (const queue of this.hosts.values()) {
      queue.heap.filter(keep);
      queue.entry = undefined;
      this.count += queue.heap.size;
      if (queue.heap.size === 0) this.hosts.delete(queue.host);
      else this.enqueueHost(queue);
    }
  }

  /** The best ready sample, if any (see {@link IndexedFrontier.draw}). */
  draw(ctx: DrawContext): number[] {
    this.release();
    const found = this.pop(ctx);
    if (found < 0) return [];
    this.held = found;
    this.count++;
    return [found];
  }

  take(id: number): boolean {
    if (id !== this.held || id < 0) return false;
    this.held = -1;
    this.count--;
    this.discard(id);
    return true;
  }

  /**
   * Lazy: samples of a fetched URL are dropped when drawn (`ctx.isFetched`); returns 0. With
   * `isUrlCounted` they leave {@link IndexedPriorityFrontier.liveSize} now.
   */
  removeUrl(url: string): number {
    const n = this.liveByUrl?.get(url);
    if (n === undefined || !this.liveByUrl) return 0;
    this.liveByUrl.delete(url);
    this.removalsOf.set(url, (this.removalsOf.get(url) ?? 0) + 1);
    this.deadCount += n;
    return 0;
  }

  /** Lazy: a closed domain's hosts are dropped when they reach the head (`ctx.isDomainClosed`). */
  purgeDomain(_domain: string): number {
    return 0;
  }

  stats(): Record<string, number> {
    return { 'frontier/size': this.liveSize, 'frontier/hosts': this.hosts.size };
  }

  /** Every waiting sample id (order unspecified). */
  *ids(): IterableIterator<number> {
    if (this.held >= 0) yield this.held;
    for (const queue of this.hosts.values()) yield* queue.heap.values();
  }

  private push(id: number): void {
    const host = this.table.host(id);
    let queue = this.hosts.get(host);
    if (!queue) {
      queue = {
        host,
        domain: this.table.domain(id),
        heap: new BinaryHeap<number>(this.less),
        entry: undefined,
      };
      this.hosts.set(host, queue);
    }
    queue.heap.push(id);
    this.count++;
    // Re-key the host only if the new sample became its head.
    if (queue.entry === undefined || queue.heap.peek() === id) this.enqueueHost(queue);
  }

  /** Puts a drawn sample that was not taken back in its queue. */
  private release(): void {
    const held = this.held;
    if (held < 0) return;
    this.held = -1;
    this.count--;
    this.push(held);
  }

  /** Removes and returns the best ready sample's id (-1 if none), dropping stale ones. */
  private pop(ctx: DrawContext): number {
    const setAside: HostQueue[] = [];
    let found = -1;
    while (found < 0) {
      const entry = this.ready.pop();
      if (!entry) break;
      const queue = entry.queue;
      if (queue.entry !== entry) continue; // stale: the queue was re-keyed or dropped since
      queue.entry = undefined;
      if (ctx.isDomainClosed(queue.domain)) {
        this.dropHost(queue);
        continue;
      }
      if (!ctx.isHostReady(queue.host) || !ctx.isDomainOpen(queue.domain)) {
        setAside.push(queue);
        continue;
      }
      if (this.dropStaleHead(queue, ctx)) {
        // The host was keyed by a sample since fetched, whose key may be better than any of its
        // live ones: it competes again under its live head, or another host's better sample
        // would be passed over (a resumed crawl's replayed frontier is full of them).
        if (queue.heap.size === 0) this.hosts.delete(queue.host);
        else this.enqueueHost(queue);
        continue;
      }
      found = queue.heap.pop() as number;
      this.count--;
      if (queue.heap.size === 0) this.hosts.delete(queue.host);
      else this.enqueueHost(queue);
    }
    for (const queue of setAside) this.enqueueHost(queue);
    return found;
  }

  /** Drops the queue's head samples whose URL was fetched; true if there were any. */
  private dropStaleHead(queue: HostQueue, ctx: DrawContext): boolean {
    let isDropped = false;
    for (let head = queue.heap.peek(); head !== undefined; head = queue.heap.peek()) {
      if (!ctx.isFetched(this.table.url(head))) break;
      queue.heap.pop();
      this.count--;
      this.discard(head);
      isDropped = true;
    }
    return isDropped;
  }

  /** Removes a sample from the table for good, keeping the per-URL counts. */
  private discard(id: number): void {
    if (this.liveByUrl) {
      const url = this.table.url(id);
      if ((this.addedAfter[id] as number) < (this.removalsOf.get(url) ?? 0)) this.deadCount--;
      else {
        const n = this.liveByUrl.get(url) ?? 0;
        if (n <= 1) this.liveByUrl.delete(url);
        else this.liveByUrl.set(url, n - 1);
      }
    }
    this.table.remove(id);
  }

  private enqueueHost(queue: HostQueue): void {
    const head = queue.heap.peek();
    if (head === undefined) return;
    queue.entry = { queue, headKey: this.table.key[head] as number, headUrl: this.table.url(head) };
    this.ready.push(queue.entry);
  }

  private dropHost(queue: HostQueue): void {
    this.count -= queue.heap.size;
    for (const id of queue.heap.values()) this.discard(id);
    queue.heap.clear();
    queue.entry = undefined;
    this.hosts.delete(queue.host);
  }
}

/**
 * Draws the best ready sample and takes it, as the {@link Action} it stands for; `parentUrls`
 * maps a sample's `parent` (>= 0) to the URL of the page it was found on. Undefined if none.
 */
export function takeBestAction(
  frontier: IndexedPriorityFrontier,
  ctx: DrawContext,
  parentUrls: readonly string[],
): Action | undefined {
  const [id] = frontier.draw(ctx);
  if (id === undefined) return undefined;
  const t = frontier.table;
  const action: Action = { url: t.url(id), host: t.host(id), domain: t.domain(id), depth: t.depth(id) };
  const parent = t.parent(id);
  if (parent >= 0) action.parentUrl = parentUrls[parent] as string;
  frontier.take(id);
  return action;
}
