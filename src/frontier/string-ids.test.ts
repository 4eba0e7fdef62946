import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRng } from '../common/index.js';
import { StringIds } from './string-ids.js';

/**
 * The ids StringIds gave before its resizes became incremental: a released id is handed out
 * again last-released first, else the next new one. The properties below hold it to that.
 */
class IdsModel {
  readonly ids = new Map<string, number>();
  private readonly free: number[] = [];
  next = 0;
  intern(s: string): { id: number; isNew: boolean } {
    const held = this.ids.get(s);
    if (held !== undefined) return { id: held, isNew: false };
    const id = this.free.pop() ?? this.next++;
    this.ids.set(s, id);
    return { id, isNew: true };
  }
  release(s: string): number {
    const id = this.ids.get(s) as number;
    this.ids.delete(s);
    this.free.push(id);
    return id;
  }
}

type Op = { kind: 'intern' | 'release' | 'look'; key: number };

/** Runs `ops` on both and checks every answer, and all held strings at the end (one comparison). */
function checkAgainstModel(ops: readonly Op[], keyOf: (k: number) => string): void {
  const ids = new StringIds();
  const model = new IdsModel();
  const got: unknown[] = [];
  const want: unknown[] = [];
  for (const { kind, key } of ops) {
    const s = keyOf(key);
    if (kind === 'intern') {
      const { id, isNew } = model.intern(s);
      got.push(ids.intern(s), ids.isNew);
      want.push(id, isNew);
    } else if (kind === 'release' && model.ids.has(s)) ids.release(model.release(s));
    got.push(ids.idOf(s));
    want.push(model.ids.get(s));
  }
  got.push(ids.size, ids.idCount);
  want.push(model.ids.size, model.next);
  for (const [s, id] of model.ids) {
    got.push(ids.idOf(s), ids.string(id));
    want.push(id, s);
  }
  expect(got).toEqual(want);
}

describe('StringIds', () => {
  it('gives each distinct string one id, through interning, releases and reuse (checked against a Map)', () => {
    const rng = createRng('string-ids');
    const ids = new StringIds();
    const model = new Map<string, number>();
    for (let step = 0; step < 20_000; step++) {
      const s = `http://h${rng.int(50)}.test/${rng.int(2_000)}`;
      if (rng.next() < 0.6) {
        const id = ids.intern(s);
        expect(ids.isNew).toBe(!model.has(s));
        if (model.has(s)) expect(id).toBe(model.get(s));
        else expect([...model.values()]).not.toContain(id);
        model.set(s, id);
      } else if (model.has(s)) {
        ids.release(model.get(s) as number);
        model.delete(s);
      }
      expect(ids.idOf(s)).toBe(model.get(s));
    }
    expect(ids.size).toBe(model.size);
    for (const [s, id] of model) expect([ids.idOf(s), ids.string(id)]).toEqual([id, s]);
  });

  it('gives the same ids and answers as before across resizes, with strings interned, found and released while a resize drains', () => {
    // Phases of growth (mostly new strings) and of shrinking (mostly releases), over a key
    // space a few times the table sizes, so that resizes (up and down) happen often and
    // lookups, re-interns and releases fall between a resize and the end of its drain.
    const op = (internWeight: number, keys: number) =>
      fc.record({
        kind: fc.constantFrom(...(Array(internWeight).fill('intern') as 'intern'[]), 'release', 'look'),
        key: fc.nat(keys - 1),
      });
    const phase = fc.oneof(
      fc.array(op(6, 600), { maxLength: 400, size: 'max' }),
      fc.array(op(1, 600), { maxLength: 400, size: 'max' }),
    );
    fc.assert(
      fc.property(fc.array(phase, { minLength: 1, maxLength: 6, size: 'max' }), (phases) =>
        checkAgainstModel(phases.flat(), (k) => `https://h${k % 7}.test/${k}`),
      ),
      { seed: 13, numRuns: 150 },
    );
  });

  it('finds a string the last resize has not moved yet, and gives it its old id when interned again', () => {
    // 8 strings fill 16 slots to half: the 9th starts a resize, and the next interns each move
    // only a few ids, so the first strings are still in the old table when looked up here.
    const ids = new StringIds();
    const s = (i: number) => `s${i}`;
    for (let i = 0; i < 9; i++) ids.intern(s(i));
    expect(ids.idOf(s(8))).toBe(8);
    expect(ids.intern(s(7))).toBe(7);
    expect(ids.isNew).toBe(false);
    ids.release(6);
    expect([ids.idOf(s(6)), ids.intern('other'), ids.idOf('other')]).toEqual([undefined, 6, 6]);
    for (let i = 0; i < 9; i++) if (i !== 6) expect(ids.idOf(s(i))).toBe(i);
  });

  it('gives the same ids as before over 20,000 distinct strings with every tenth released (many resizes)', () => {
    const ops: Op[] = [];
    for (let k = 0; k < 20_000; k++) {
      ops.push({ kind: 'intern', key: k });
      if (k % 10 === 9) ops.push({ kind: 'release', key: k - 5 });
      if (k % 3 === 0) ops.push({ kind: 'look', key: k >> 1 });
    }
    checkAgainstModel(ops, (k) => `https://example.org/page/${k}`);
  });
});
