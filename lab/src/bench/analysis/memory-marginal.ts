// Bytes per frontier URL between checkpoints of a memory benchmark run: (memory at the larger
// size - memory at the smaller) / (URLs added), heap and RSS. Fixed costs (the V8 young
// generation, code, the Q-network) cancel out, so this is what each further URL costs.
// npx vite-node lab/src/bench/analysis/memory-marginal.ts -- results/memory-all-strategies.json
import { readFileSync } from 'node:fs';

interface Point {
  strategy: string;
  frontierSize: number;
  heapBytes: number;
  rssBytes: number;
}
const file = process.argv.slice(2).find((a) => a !== '--') ?? 'results/memory-all-strategies.json';
const data = JSON.parse(readFileSync(file, 'utf8')) as { points: Point[] };
const byStrategy = new Map<string, Point[]>();
for (const p of data.points) byStrategy.set(p.strategy, [...(byStrategy.get(p.strategy) ?? []), p]);
console.log('| strategy | 100k to 500k, heap / RSS | 500k to 1M, heap / RSS |');
console.log('|---|---:|---:|');
for (const [strategy, points] of byStrategy) {
  points.sort((a, b) => a.frontierSize - b.frontierSize);
  const cells = points.slice(1).map((b, i) => {
    const a = points[i] as Point;
    const n = b.frontierSize - a.frontierSize;
    return `${Math.round((b.heapBytes - a.heapBytes) / n)} / ${Math.round((b.rssBytes - a.rssBytes) / n)}`;
  });
  console.log(`| ${strategy} | ${cells.join(' | ')} |`);
}
