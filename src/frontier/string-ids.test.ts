import { describe, expect, it } from 'vitest';
import { createRng } from '../common/rng.js';
import { StringIds } from './string-ids.js';

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
});
