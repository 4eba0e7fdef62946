/**
 * Compact storage of frontier samples (at most 300 bytes per frontier URL): a sample is
 * an integer id into columns of typed arrays, not an object. Per sample: URL, host and domain ids
 * (each string kept once, interned), depth, a caller-defined `parent` number (TRES: the index of
 * the page the link was found on), an optional ordering key and an optional state-action vector
 * of `featureCount` floats, plus the links of its URL and domain groups. About 70 bytes per
 * sample with a 9-feature vector, plus each distinct URL string once with its map entry.
 *
 * Groups by URL and by domain are doubly linked lists whose removal moves the group's last
 * member into the removed member's place: the same order as an array with swap-remove (the
 * order the earlier object-based indexes had), so purges visit samples in the same order and
 * seeded runs repeat exactly.
 *
 * Every per-sample column grows in place (resizable buffers, see `slice-pool.ts`): no insert pays
 * for copying the table, and `x` and `key` stay the same arrays as the table grows.
 *
 * Ids are reused. A caller that still reads a removed sample's columns for a while (TRES reads
 * the vectors of a page's outlinks when the transition completes, at the next decision) sets
 * `isRecycleDeferred` and calls {@link SampleTable.recycle} when it is done: until then removed
 * ids are not handed out again and their columns stay as they were.
 */

import { growableArray, grownArray as grown, grownCapacity } from './slice-pool.js';
import { StringIds } from './string-ids.js';

/** What a sample is made from (a `DiscoveredLink` fits). */
export interface SampleInput {
  url: string;
  host: string;
  /** Registrable domain (or host): the unit of the page limit b. */
  domain: string;
  /** Crawl depth. */
  depth: number;
}

/** Options of {@link SampleTable}. */
export interface SampleTableOptions {
  /** Floats of the state-action vector per sample; 0 for none. @default 0 */
  featureCount?: number;
  /** Keep removed ids until {@link SampleTable.recycle} (see the file comment). @default false */
  isRecycleDeferred?: boolean;
  /** Initial capacity in samples. @default 1024 */
  initialCapacity?: number;
  /**
   * Index samples by URL (URL strings interned, `removeUrl`, `countUrl`); false keeps each
   * sample's URL string as given, for frontiers that drop stale URLs lazily. @default true
   */
  isUrlIndexed?: boolean;
}

const NONE = -1;
/**
 * Samples the columns reserve address space for (not memory: pages are committed as the table
 * grows and resident once written); past it a growth copies the columns once into larger ones.
 */
const MAX_SAMPLES = 2 ** 27;
const URL_PAGE_BITS = 12;
const URL_PAGE_MASK = (1 << URL_PAGE_BITS) - 1;

/** Columns of frontier samples by id. */
export class SampleTable {
  readonly featureCount: number;
  /** State-action vectors, [capacity, featureCount]; grows in place with the table. */
  x: Float32Array;
  /** Ordering key per sample (priority frontiers, after {@link SampleTable.useKeys}); grows in place. */
  key: Float64Array;
  private urlId: Int32Array;
  private hostId: Int32Array;
  private domainId: Int32Array;
  private depthOf: Int32Array;
  private parentOf: Int32Array;
  /** URL and domain group links: next/prev member, NONE at the ends; urlNext is -2 for a free id. */
  private urlNext: Int32Array;
  private urlPrev: Int32Array;
  private domainNext: Int32Array;
  private domainPrev: Int32Array;
  private readonly urls = new StringIds();
  private readonly hosts = new StringIds();
  private readonly domains = new StringIds();
  /** Head and tail of each URL group, by URL id; of each domain group, by domain id. */
  private urlHead = growableArray(Int32Array, 1024);
  private urlTail = growableArray(Int32Array, 1024);
  private domainHead = new Int32Array(64).fill(NONE);
  private domainTail = new Int32Array(64).fill(NONE);
  private domainSize = new Int32Array(64);
  private capacity: number;
  private used = 0;
  private live = 0;
  private free: number[] = [];
  private retired: number[] = [];
  private readonly isDeferred: boolean;
  private readonly isUrlIndexed: boolean;
  /**
   * URL of each sample when not indexed, in pages of 2^URL_PAGE_BITS: one JS array grown by V8
   * copies itself, and in old space that copy at 1.3M entries took 130 to 270 ms (a GC with it).
   */
  private readonly urlPages: (string | undefined)[][] = [];

  constructor(options: SampleTableOptions = {}) {
    this.featureCount = options.featureCount ?? 0;
    this.isDeferred = options.isRecycleDeferred ?? false;
    this.isUrlIndexed = options.isUrlIndexed ?? true;
    const n = Math.max(16, options.initialCapacity ?? 1024);
    this.capacity = n;
    const f = this.featureCount;
    this.x = f > 0 ? growableArray(Float32Array, n * f, MAX_SAMPLES * f) : new Float32Array(0);
    this.key = new Float64Array(0);
    this.urlId = growableArray(Int32Array, n, MAX_SAMPLES);
    this.hostId = growableArray(Int32Array, n, MAX_SAMPLES);
    this.domainId = growableArray(Int32Array, n, MAX_SAMPLES);
    this.depthOf = growableArray(Int32Array, n, MAX_SAMPLES);
    this.parentOf = growableArray(Int32Array, n, MAX_SAMPLES);
    this.urlNext = growableArray(Int32Array, n, MAX_SAMPLES);
    this.urlPrev = growableArray(Int32Array, n, MAX_SAMPLES);
    this.domainNext = growableArray(Int32Array, n, MAX_SAMPLES);
    this.domainPrev = growableArray(Int32Array, n, MAX_SAMPLES);
  }

  /** Samples in the table. */
  get size(): number {
    return this.live;
  }

  /** Distinct URLs with at least one sample. */
  get urlCount(): number {
    return this.urls.size;
  }

  /** Adds a sample (its vector, zeros, is the caller's to fill at `x[id * featureCount]`); returns its id. */
  add(input: SampleInput, parent: number): number {
    const id = this.newId();
    const d = this.domains.intern(input.domain);
    this.hostId[id] = this.hosts.intern(input.host);
    this.domainId[id] = d;
    this.depthOf[id] = input.depth;
    this.parentOf[id] = parent;
    if (this.isUrlIndexed) this.linkUrl(id, input.url);
    else {
      const p = id >>> URL_PAGE_BITS;
      if (p === this.urlPages.length) this.urlPages.push(new Array<string | undefined>(URL_PAGE_MASK + 1));
      (this.urlPages[p] as (string | undefined)[])[id & URL_PAGE_MASK] = input.url;
      this.urlNext[id] = NONE;
    }
    if (d >= this.domainHead.length) {
      // Plain arrays (domains are few): copied at 2x. Read the old length before growing.
      const old = this.domainHead.length;
      const n = Math.max(d + 1, old * 2);
      this.domainHead = grown(this.domainHead, n).fill(NONE, old);
      this.domainTail = grown(this.domainTail, n).fill(NONE, old);
      this.domainSize = grown(this.domainSize, n);
    }
    append(this.domainHead, this.domainTail, this.domainNext, this.domainPrev, d, id);
    this.domainSize[d] = (this.domainSize[d] as number) + 1;
    this.live++;
    return id;
  }

  private linkUrl(id: number, url: string): void {
    const u = this.urls.intern(url);
    this.urlId[id] = u;
    if (u >= this.urlHead.length) {
      const n = grownCapacity(this.urlHead.length, u + 1);
      this.urlHead = grown(this.urlHead, n);
      this.urlTail = grown(this.urlTail, n);
    }
    if (this.urls.isNew) this.urlHead[u] = this.urlTail[u] = NONE;
    append(this.urlHead, this.urlTail, this.urlNext, this.urlPrev, u, id);
  }

  /** Removes a sample from the table and both groups. */
  remove(id: number): void {
    this.unlinkUrl(id);
    this.unlinkDomain(id);
    this.retire(id);
  }

  /**
   * Removes every sample of `url` and returns their ids in group order; `each(id)` runs for each
   * before it leaves its domain group (the caller's own bookkeeping).
   */
  removeUrl(url: string, each: (id: number) => void): number {
    if (!this.isUrlIndexed) throw new TypeError('removeUrl needs a table with isUrlIndexed');
    const u = this.urls.idOf(url);
    if (u === undefined) return 0;
    let n = 0;
    for (let id = this.urlHead[u] as number; id !== NONE; ) {
      const next = this.urlNext[id] as number;
      each(id);
      this.unlinkDomain(id);
      this.retire(id);
      id = next;
      n++;
    }
    this.urls.release(u);
    return n;
  }

  /** Removes every sample of `domain`, in group order; `each(id)` runs for each first. */
  removeDomain(domain: string, each: (id: number) => void): number {
    const d = this.domains.idOf(domain);
    if (d === undefined || this.domainHead[d] === NONE) return 0;
    let n = 0;
    for (let id = this.domainHead[d] as number; id !== NONE; ) {
      const next = this.domainNext[id] as number;
      each(id);
      this.unlinkUrl(id);
      this.retire(id);
      id = next;
      n++;
    }
    this.domainHead[d] = this.domainTail[d] = NONE;
    this.domainSize[d] = 0;
    return n;
  }

  /** Hands the ids removed since the last call out again (with `isRecycleDeferred`). */
  recycle(): void {
    for (const id of this.retired) this.free.push(id);
    this.retired.length = 0;
  }

  url(id: number): string {
    return this.isUrlIndexed
      ? this.urls.string(this.urlId[id] as number)
      : ((this.urlPages[id >>> URL_PAGE_BITS] as (string | undefined)[])[id & URL_PAGE_MASK] as string);
  }
  host(id: number): string {
    return this.hosts.string(this.hostId[id] as number);
  }
  domain(id: number): string {
    return this.domains.string(this.domainId[id] as number);
  }
  /** Interned host id of the sample (0 .. hostIdCount - 1). */
  hostIdOf(id: number): number {
    return this.hostId[id] as number;
  }
  /** Interned domain id of the sample (0 .. domainIdCount - 1). */
  domainIdOf(id: number): number {
    return this.domainId[id] as number;
  }
  /** Upper bound of host ids given so far. */
  get hostIdCount(): number {
    return this.hosts.idCount;
  }
  /** Upper bound of domain ids given so far. */
  get domainIdCount(): number {
    return this.domains.idCount;
  }
  depth(id: number): number {
    return this.depthOf[id] as number;
  }
  parent(id: number): number {
    return this.parentOf[id] as number;
  }
  /** True if `id` holds a sample now. */
  has(id: number): boolean {
    return id >= 0 && id < this.used && this.urlNext[id] !== -2;
  }
  /** A copy of the sample's vector. */
  vector(id: number): Float32Array {
    const f = this.featureCount;
    return this.x.slice(id * f, id * f + f);
  }

  /** Number of samples of `url`. */
  countUrl(url: string): number {
    const u = this.urls.idOf(url);
    let n = 0;
    if (u !== undefined)
      for (let id = this.urlHead[u] as number; id !== NONE; id = this.urlNext[id] as number) n++;
    return n;
  }

  /** Number of samples of `domain`. */
  countDomain(domain: string): number {
    const d = this.domains.idOf(domain);
    return d === undefined ? 0 : (this.domainSize[d] as number);
  }

  /** Ids of the samples of `url` (or `domain`), in group order; for checks and tests. */
  group(kind: 'url' | 'domain', key: string): number[] {
    const [ids, head, next] =
      kind === 'url'
        ? [this.urls, this.urlHead, this.urlNext]
        : [this.domains, this.domainHead, this.domainNext];
    const k = ids.idOf(key);
    const out: number[] = [];
    if (k !== undefined) for (let id = head[k] as number; id !== NONE; id = next[id] as number) out.push(id);
    return out;
  }

  /** Every live id, ascending. */
  *ids(): IterableIterator<number> {
    for (let id = 0; id < this.used; id++) if (this.urlNext[id] !== -2) yield id;
  }

  /** Allocates the key column (priority frontiers). */
  useKeys(): void {
    if (this.key.length === 0) this.key = growableArray(Float64Array, this.capacity, MAX_SAMPLES);
  }

  private newId(): number {
    const reused = this.free.pop();
    if (reused !== undefined) return reused;
    if (!this.isDeferred && this.retired.length > 0) return this.retired.pop() as number;
    if (this.used === this.capacity) this.grow();
    return this.used++;
  }

  private retire(id: number): void {
    this.urlNext[id] = -2;
    this.live--;
    if (this.isDeferred) this.retired.push(id);
    else this.free.push(id);
  }

  /** Grows every column in place (O(1) each, no copy; see the file comment). */
  private grow(): void {
    const n = grownCapacity(this.capacity, this.capacity + 1);
    this.capacity = n;
    this.x = grown(this.x, n * this.featureCount);
    if (this.key.length > 0) this.key = grown(this.key, n);
    this.urlId = grown(this.urlId, n);
    this.hostId = grown(this.hostId, n);
    this.domainId = grown(this.domainId, n);
    this.depthOf = grown(this.depthOf, n);
    this.parentOf = grown(this.parentOf, n);
    this.urlNext = grown(this.urlNext, n);
    this.urlPrev = grown(this.urlPrev, n);
    this.domainNext = grown(this.domainNext, n);
    this.domainPrev = grown(this.domainPrev, n);
  }

  private unlinkUrl(id: number): void {
    if (!this.isUrlIndexed) {
      (this.urlPages[id >>> URL_PAGE_BITS] as (string | undefined)[])[id & URL_PAGE_MASK] = undefined;
      return;
    }
    const u = this.urlId[id] as number;
    swapRemove(this.urlHead, this.urlTail, this.urlNext, this.urlPrev, u, id);
    if (this.urlHead[u] === NONE) this.urls.release(u);
  }

  private unlinkDomain(id: number): void {
    const d = this.domainId[id] as number;
    swapRemove(this.domainHead, this.domainTail, this.domainNext, this.domainPrev, d, id);
    this.domainSize[d] = (this.domainSize[d] as number) - 1;
  }
}

function append(
  head: Int32Array,
  tail: Int32Array,
  next: Int32Array,
  prev: Int32Array,
  k: number,
  id: number,
) {
  const t = tail[k] as number;
  prev[id] = t;
  next[id] = NONE;
  if (t === NONE) head[k] = id;
  else next[t] = id;
  tail[k] = id;
}

/** Removes `id` from list `k` by moving the list's last member into its place (swap-remove order). */
function swapRemove(
  head: Int32Array,
  tail: Int32Array,
  next: Int32Array,
  prev: Int32Array,
  k: number,
  id: number,
) {
  const last = tail[k] as number;
  // Unlink the last member.
  const beforeLast = prev[last] as number;
  tail[k] = beforeLast;
  if (beforeLast === NONE) head[k] = NONE;
  else next[beforeLast] = NONE;
  if (last === id) return;
  // Put it where `id` was (id's neighbours are current: if id preceded last, id is now the tail).
  const p = prev[id] as number;
  const n = next[id] as number;
  prev[last] = p;
  next[last] = n;
  if (p === NONE) head[k] = last;
  else next[p] = last;
  if (n === NONE) tail[k] = last;
  else prev[n] = last;
}
