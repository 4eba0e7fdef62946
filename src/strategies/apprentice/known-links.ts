/**
 * The apprentice's unfetched URLs (at most 300 bytes per frontier URL), in typed
 * arrays by interned URL id instead of an object per URL in a Map: host and domain ids, depth,
 * the index of the page its first link was found on, its baseline priority, whether `next`
 * returned it, and the features of its first link as a slice of one shared Int32Array pool
 * (compacted when half of it is dead).
 */
import { grownArray as grown, SlicePool, StringIds } from '../../frontier/index.js';
import type { DiscoveredLink } from '../../types/index.js';

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
  /** Each URL's first-link features. */
  private readonly pool = new SlicePool();
  private readonly isKnown = (u: number) => this.has(u);
  /** Known URLs that `next` returned (in flight, or waiting for a retry). */
  private takenCount = 0;

  /** Known URLs that `next` has not returned: the frontier's URLs. */
  get waitingCount(): number {
    return this.urls.size - this.takenCount;
  }

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
    this.pool.set(u, features, this.urls.idCount, this.isKnown);
    return u;
  }

  /** Forgets `url` (fetched, or its domain closed). */
  delete(url: string): void {
    const u = this.urls.idOf(url);
    if (u === undefined) return;
    if (this.takenOf[u] === 1) this.takenCount--;
    this.pool.free(u);
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
    if (this.takenOf[u] === 0) this.takenCount++;
    this.takenOf[u] = 1;
  }
  /** The features: a view into the pool, valid until the next {@link KnownLinks.add}. */
  features(u: number): Int32Array {
    return this.pool.view(u);
  }

  private grow(n: number): void {
    const length = Math.max(n, Math.ceil(this.hostOf.length * 1.5));
    this.hostOf = grown(this.hostOf, length);
    this.domainOf = grown(this.domainOf, length);
    this.depthOf = grown(this.depthOf, length);
    this.parentOf = grown(this.parentOf, length);
    this.baselineOf = grown(this.baselineOf, length);
    this.takenOf = grown(this.takenOf, length);
  }
}
