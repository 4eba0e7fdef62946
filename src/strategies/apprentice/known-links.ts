/**
 * The apprentice's unfetched URLs (issue 13: at most 300 bytes per frontier URL), in typed
 * arrays by interned URL id instead of an object per URL in a Map: host and domain ids, depth,
 * the index of the page its first link was found on, its baseline priority, whether `next`
 * returned it, and the features of its first link as a slice of one shared Int32Array pool
 * (compacted when half of it is dead).
 */
import { StringIds } from '../../frontier/string-ids.js';
import type { DiscoveredLink } from '../strategy.js';

function grown<T extends Int32Array | Uint8Array | Float64Array>(a: T, length: number): T {
  const b = new (a.constructor as new (n: number) => T)(length);
  b.set(a);
  return b;
}

/** Unfetched URLs known to the apprentice, by URL id. */
export class KnownLinks {
  private readonly urls = new StringIds();
  private readonly hosts = new StringIds();
  private readonly domains = new StringIds();
  private hostOf = new Int32Array(1024);
  private domainOf = new Int32Array(1024);
  private depthOf = new Int32Array(1024);
  private parentOf = new Int32Array(1024);
  private baselineOf = new Float64Array(1024);
  private takenOf = new Uint8Array(1024);
  private startOf = new Int32Array(1024);
  private lengthOf = new Int32Array(1024);
  private pool = new Int32Array(1 << 16);
  private poolUsed = 0;
  private poolLive = 0;

  /** The URL's id if it is known (and not fetched). */
  idOf(url: string): number | undefined {
    return this.urls.idOf(url);
  }

  /** Upper bound of URL ids (live ones have a {@link KnownLinks.url}). */
  get idCount(): number {
    return this.urls.idCount;
  }

  /** True if `u` is a known URL's id. */
  has(u: number): boolean {
    return (this.urls.string(u) as string | undefined) !== undefined;
  }

  /** Adds a new URL (`parent`: index of the page its link was found on, -1 for a seed); returns its id. */
  add(link: DiscoveredLink, parent: number, features: Int32Array, baseline: number): number {
    const u = this.urls.intern(link.url);
    if (u >= this.hostOf.length) this.grow(u + 1);
    this.hostOf[u] = this.hosts.intern(link.host);
    this.domainOf[u] = this.domains.intern(link.domain);
    this.depthOf[u] = link.depth;
    this.parentOf[u] = parent;
    this.baselineOf[u] = baseline;
    this.takenOf[u] = 0;
    this.lengthOf[u] = 0;
    const n = features.length;
    this.reserve(n);
    this.pool.set(features, this.poolUsed);
    this.startOf[u] = this.poolUsed;
    this.lengthOf[u] = n;
    this.poolUsed += n;
    this.poolLive += n;
    return u;
  }

  /** Forgets `url` (fetched, or its domain closed). */
  delete(url: string): void {
    const u = this.urls.idOf(url);
    if (u === undefined) return;
    this.poolLive -= this.lengthOf[u] as number;
    this.urls.release(u);
  }

  url(u: number): string {
    return this.urls.string(u);
  }
  host(u: number): string {
    return this.hosts.string(this.hostOf[u] as number);
  }
  domain(u: number): string {
    return this.domains.string(this.domainOf[u] as number);
  }
  depth(u: number): number {
    return this.depthOf[u] as number;
  }
  parent(u: number): number {
    return this.parentOf[u] as number;
  }
  baseline(u: number): number {
    return this.baselineOf[u] as number;
  }
  setBaseline(u: number, baseline: number): void {
    this.baselineOf[u] = baseline;
  }
  isTaken(u: number): boolean {
    return this.takenOf[u] === 1;
  }
  setTaken(u: number): void {
    this.takenOf[u] = 1;
  }
  /** The features: a view into the pool, valid until the next {@link KnownLinks.add}. */
  features(u: number): Int32Array {
    const start = this.startOf[u] as number;
    return this.pool.subarray(start, start + (this.lengthOf[u] as number));
  }

  private grow(n: number): void {
    const length = Math.max(n, Math.ceil(this.hostOf.length * 1.5));
    this.hostOf = grown(this.hostOf, length);
    this.domainOf = grown(this.domainOf, length);
    this.depthOf = grown(this.depthOf, length);
    this.parentOf = grown(this.parentOf, length);
    this.baselineOf = grown(this.baselineOf, length);
    this.takenOf = grown(this.takenOf, length);
    this.startOf = grown(this.startOf, length);
    this.lengthOf = grown(this.lengthOf, length);
  }

  /** Makes room for `n` more pool entries: compacts if half the pool is dead, else grows it. */
  private reserve(n: number): void {
    if (this.poolUsed + n <= this.pool.length) return;
    const isCompacting = this.poolLive * 2 <= this.poolUsed;
    const length = isCompacting ? this.pool.length : Math.ceil((this.poolUsed + n) * 1.5);
    const pool = new Int32Array(Math.max(length, this.poolLive + n));
    let used = 0;
    for (let u = 0; u < this.urls.idCount; u++) {
      if (!this.has(u)) continue;
      const start = this.startOf[u] as number;
      const len = this.lengthOf[u] as number;
      pool.set(this.pool.subarray(start, start + len), used);
      this.startOf[u] = used;
      used += len;
    }
    this.pool = pool;
    this.poolUsed = used;
  }
}
