/**
 * What RLwCS keeps per URL it has seen (at most 300 bytes per frontier URL), in typed
 * arrays by interned URL id instead of two Maps of URL strings (one with an object per URL): the
 * best key the URL was queued with (-Infinity once fetched), and the sum and count of the
 * relevance of the fetched pages that link to it (the "mean relevance of the page's parents"
 * state feature). Ids are never released: a fetched URL must stay known so that it is never
 * queued again.
 */
import { growableArray, grownArray, grownCapacity, StringIds } from '../../frontier/index.js';

export class UrlRecords {
  private readonly urls = new StringIds();
  /** Best key queued with; NaN: never queued. */
  private keyOf = growableArray(Float64Array, 1024).fill(Number.NaN);
  private parentSumOf = growableArray(Float64Array, 1024);
  private parentCountOf = growableArray(Int32Array, 1024);

  /** The best key `url` was queued with, -Infinity once fetched, undefined if never queued. */
  key(url: string): number | undefined {
    const u = this.urls.idOf(url);
    if (u === undefined) return undefined;
    const key = this.keyOf[u] as number;
    return Number.isNaN(key) ? undefined : key;
  }

  setKey(url: string, key: number): void {
    this.keyOf[this.id(url)] = key;
  }

  /** Adds the relevance of one more fetched page that links to `url`. */
  addParent(url: string, relevance: number): void {
    const u = this.id(url);
    this.parentSumOf[u] = (this.parentSumOf[u] as number) + relevance;
    this.parentCountOf[u] = (this.parentCountOf[u] as number) + 1;
  }

  /**
   * Mean relevance of the fetched pages that link to `url` (undefined when none did), then
   * forgets them (the URL is being fetched).
   */
  takeParentMean(url: string): number | undefined {
    const u = this.urls.idOf(url);
    if (u === undefined) return undefined;
    const count = this.parentCountOf[u] as number;
    if (count === 0) return undefined;
    const mean = (this.parentSumOf[u] as number) / count;
    this.parentSumOf[u] = 0;
    this.parentCountOf[u] = 0;
    return mean;
  }

  private id(url: string): number {
    const u = this.urls.intern(url);
    if (u >= this.keyOf.length) {
      const length = grownCapacity(this.keyOf.length, u + 1);
      const before = this.keyOf.length;
      this.keyOf = grownArray(this.keyOf, length);
      this.keyOf.fill(Number.NaN, before);
      this.parentSumOf = grownArray(this.parentSumOf, length);
      this.parentCountOf = grownArray(this.parentCountOf, length);
    }
    return u;
  }
}
