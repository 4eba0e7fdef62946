/**
 * What `ache` keeps of each queued URL (at most 300 bytes per frontier URL), in typed
 * arrays by interned URL id instead of an item and a data object per link: the serial number of
 * its live frontier sample (older samples of the URL are stale), its hard-focus tier, whether it
 * is a seed, the relevance probability of the page it was found on, that page's index, and its
 * field-word ids as a slice of one shared Int32Array pool (compacted when half of it is dead).
 */
import {
  grownArray as grown,
  type IndexedPriorityFrontier,
  SlicePool,
  StringIds,
} from '../../frontier/index.js';

/** A queued link's data, as {@link QueuedLinks.set} takes it. */
export interface QueuedLinkData {
  /** Field-word ids of the link. */
  ids: ArrayLike<number>;
  /** 0: found on a relevant page (or a seed); 1: on an irrelevant page. */
  tier: number;
  /** Relevance probability of the page the link was found on. */
  parentProbability: number;
  isSeed: boolean;
}

/** Queued URLs and their link data, by URL. */
export class QueuedLinks {
  private readonly urls = new StringIds();
  private serialOf = new Int32Array(1024);
  private sampleOf = new Int32Array(1024);
  private tierOf = new Uint8Array(1024);
  private seedOf = new Uint8Array(1024);
  private parentProbabilityOf = new Float64Array(1024);
  private parentOf = new Int32Array(1024);
  /** New frontier keys by sample id, reused by every {@link QueuedLinks.rekeyLive}. */
  private keyScratch = new Float64Array(0);
  /** Each queued URL's field-word ids. */
  private readonly pool = new SlicePool();
  private readonly isQueued = (u: number) => this.url(u) !== undefined;

  /** Number of queued URLs. */
  get size(): number {
    return this.urls.size;
  }

  /** The URL's id if it is queued. */
  idOf(url: string): number | undefined {
    return this.urls.idOf(url);
  }

  /** Upper bound of URL ids (queued ones have a {@link QueuedLinks.url}). */
  get idCount(): number {
    return this.urls.idCount;
  }

  /** The URL of id `u`, undefined if `u` is not queued. */
  url(u: number): string | undefined {
    return this.urls.string(u) as string | undefined;
  }

  /**
   * Queues `url` (or replaces its data) with its live sample's `serial` (never one used before)
   * and `parent` page index; returns its id. Its sample id is the caller's to set
   * ({@link QueuedLinks.setSample}).
   */
  set(url: string, serial: number, parent: number, data: QueuedLinkData): number {
    const u = this.urls.intern(url);
    if (u >= this.serialOf.length) this.grow(u + 1);
    this.serialOf[u] = serial;
    this.tierOf[u] = data.tier;
    this.seedOf[u] = data.isSeed ? 1 : 0;
    this.parentProbabilityOf[u] = data.parentProbability;
    this.parentOf[u] = parent;
    this.pool.set(u, data.ids, this.urls.idCount, this.isQueued);
    return u;
  }

  /** The frontier sample id of the URL's live sample (check its serial: ids are reused). */
  sample(u: number): number {
    return this.sampleOf[u] as number;
  }
  setSample(u: number, id: number): void {
    this.sampleOf[u] = id;
  }

  /** Forgets `url` (fetched or taken). */
  delete(url: string): void {
    const u = this.urls.idOf(url);
    if (u === undefined) return;
    this.pool.free(u);
    this.urls.release(u);
  }

  serial(u: number): number {
    return this.serialOf[u] as number;
  }
  tier(u: number): number {
    return this.tierOf[u] as number;
  }
  isSeed(u: number): boolean {
    return this.seedOf[u] === 1;
  }
  parentProbability(u: number): number {
    return this.parentProbabilityOf[u] as number;
  }
  parent(u: number): number {
    return this.parentOf[u] as number;
  }
  /** The field-word ids: a view into the pool, valid until the next {@link QueuedLinks.set}. */
  ids(u: number): Int32Array {
    return this.pool.view(u);
  }

  /**
   * The pool of every queued URL's field-word ids, valid until the next {@link QueuedLinks.set}:
   * those of `u` are its entries from {@link QueuedLinks.idStart} to {@link QueuedLinks.idEnd}
   * (what {@link QueuedLinks.ids} views, without a view object per call).
   */
  get idPool(): Int32Array {
    return this.pool.entries;
  }
  /** Where `u`'s ids start in {@link QueuedLinks.idPool}. */
  idStart(u: number): number {
    return this.pool.start(u);
  }
  /** Just past `u`'s last id in {@link QueuedLinks.idPool}. */
  idEnd(u: number): number {
    return this.pool.start(u) + this.pool.length(u);
  }

  /** A copy of the URL's data. */
  data(u: number): QueuedLinkData & { ids: Int32Array } {
    return {
      ids: this.ids(u).slice(),
      tier: this.tier(u),
      parentProbability: this.parentProbability(u),
      isSeed: this.isSeed(u),
    };
  }

  /**
   * Gives the live sample of every queued URL in `frontier` the key `keyOf(u)`, and drops the
   * stale samples, in place (`IndexedPriorityFrontier.rekey`: the draws that follow are those of
   * a frontier rebuilt from the live samples). A URL's sample is live if it still holds the URL's
   * serial (a sample dropped lazily gives its id to another URL's sample, with another serial:
   * callers number their samples and never reuse a serial). `keyOf` is called in URL id order.
   */
  rekeyLive(frontier: IndexedPriorityFrontier, keyOf: (u: number) => number): void {
    const t = frontier.table;
    if (this.keyScratch.length < t.key.length) this.keyScratch = new Float64Array(t.key.length);
    const keys = this.keyScratch.fill(Number.NaN); // by sample id; NaN: not a queued URL's live sample
    for (let u = 0; u < this.idCount; u++) {
      if (this.url(u) === undefined) continue;
      const id = this.sample(u);
      // A serial is never reused, so a sample holding the URL's serial is its live one: its URL
      // needs no check (a read at a random place per queued URL, a sixth of a rescoring's time).
      if (!t.has(id) || t.parent(id) !== this.serial(u)) continue;
      keys[id] = keyOf(u);
    }
    frontier.rekey((id) => {
      const key = keys[id] as number;
      return Number.isNaN(key) ? undefined : key;
    });
  }

  private grow(n: number): void {
    const length = Math.max(n, Math.ceil(this.serialOf.length * 1.5));
    this.serialOf = grown(this.serialOf, length);
    this.sampleOf = grown(this.sampleOf, length);
    this.tierOf = grown(this.tierOf, length);
    this.seedOf = grown(this.seedOf, length);
    this.parentProbabilityOf = grown(this.parentProbabilityOf, length);
    this.parentOf = grown(this.parentOf, length);
  }
}
