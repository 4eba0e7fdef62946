/**
 * A bounded time series for the dashboard's charts: at most `capacity` samples however long the
 * crawl runs. When full it keeps every second sample and from then on takes one sample in two
 * (then one in four, ...), so the series always spans the whole crawl at even resolution and
 * adding a sample costs O(1) amortised.
 */
export class DecimatingSeries<T> {
  private readonly samples: T[] = [];
  private stride = 1;
  private skipped = 0;

  /** @param capacity most samples kept (even, >= 2). */
  constructor(private readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 2 || capacity % 2 !== 0)
      throw new RangeError(`capacity must be an even integer >= 2, got ${capacity}`);
  }

  /** Offers a sample; it is kept if it falls on the current stride. */
  push(sample: T): void {
    if (++this.skipped < this.stride) return;
    this.skipped = 0;
    this.samples.push(sample);
    if (this.samples.length === this.capacity) {
      for (let i = 0; i < this.capacity / 2; i++) this.samples[i] = this.samples[2 * i + 1] as T;
      this.samples.length = this.capacity / 2;
      this.stride *= 2;
    }
  }

  /** The kept samples, oldest first (a copy). */
  values(): T[] {
    return this.samples.slice();
  }

  /** The last kept sample. */
  last(): T | undefined {
    return this.samples.at(-1);
  }
}

/** The newest `capacity` items, newest last; O(1) per push. */
export class RingBuffer<T> {
  private readonly items: (T | undefined)[];
  private next = 0;
  private size = 0;

  constructor(private readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`capacity must be an integer >= 1, got ${capacity}`);
    this.items = new Array<T | undefined>(capacity);
  }

  push(item: T): void {
    this.items[this.next] = item;
    this.next = (this.next + 1) % this.capacity;
    if (this.size < this.capacity) this.size++;
  }

  /** The items, oldest first (a copy). */
  values(): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.size; i++) {
      out.push(this.items[(this.next - this.size + i + this.capacity) % this.capacity] as T);
    }
    return out;
  }
}
