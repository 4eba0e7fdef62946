import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderBypasses, importEdges, roomBypasses, twoFileCycles } from './import-graph.js';

/** The figures scripts/count-imports.ts prints, held at zero (issue 24). */
const edges = importEdges(join(import.meta.dirname, '..', 'src'));

describe('imports between rooms', () => {
  it("go through the other room's index.ts (fix with: npx vite-node scripts/imports-through-index.ts)", () => {
    expect(roomBypasses(edges).map((e) => `${e.from} -> ${e.specifier}`)).toEqual([]);
  });

  it("go into a subfolder of a room through that subfolder's index.ts (same fix)", () => {
    expect(folderBypasses(edges).bypass.map((e) => `${e.from} -> ${e.specifier}`)).toEqual([]);
  });

  it('form no two-file cycle', () => {
    expect(twoFileCycles(edges).map(([a, b]) => `${a} <-> ${b}`)).toEqual([]);
  });
});
