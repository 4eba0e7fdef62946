/**
 * Strings interned as small integer ids (URLs, hosts, domains of the frontier's samples): each
 * distinct string is kept once, and a sample stores a 4-byte id instead of its own copy (the
 * crawl loop makes a fresh host and domain string for every link). Released ids are reused.
 */
export class StringIds {
  private readonly idByString = new Map<string, number>();
  private readonly strings: (string | undefined)[] = [];
  private readonly free: number[] = [];
  /** True if the last {@link StringIds.intern} call gave a new id. */
  isNew = false;

  /** Number of strings held. */
  get size(): number {
    return this.idByString.size;
  }

  /** Upper bound of the ids given so far (ids are 0 .. idCount - 1). */
  get idCount(): number {
    return this.strings.length;
  }

  /** The id of `s`, giving it one if it has none. */
  intern(s: string): number {
    const known = this.idByString.get(s);
    if (known !== undefined) {
      this.isNew = false;
      return known;
    }
    this.isNew = true;
    const id = this.free.pop() ?? this.strings.length;
    this.strings[id] = s;
    this.idByString.set(s, id);
    return id;
  }

  /** The id of `s`, or undefined. */
  idOf(s: string): number | undefined {
    return this.idByString.get(s);
  }

  /** The string of a held id. */
  string(id: number): string {
    return this.strings[id] as string;
  }

  /** Forgets the string of `id`; the id may be handed out again. */
  release(id: number): void {
    const s = this.strings[id];
    if (s === undefined) return;
    this.idByString.delete(s);
    this.strings[id] = undefined;
    this.free.push(id);
  }
}
