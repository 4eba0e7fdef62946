// The most harvest rate any crawler could reach at domain limit b within a page budget on the
// DocWeb, knowing every page's label and ignoring whether the pages can be reached: the sum over
// sites (hosts without www.) of min(b, relevant pages of the site), over the budget. Reads the
// DocWeb's labels (docweb.sqlite).
// npx vite-node lab/src/bench/analysis/limit-bound.ts -- DOCWEB_CACHE 3000 100,10,5
import { join } from 'node:path';
import Database from 'better-sqlite3';

const [cache = 'DOCWEB_CACHE', budgetText = '3000', limitsText = '100,10,5'] = process.argv
  .slice(2)
  .filter((a) => a !== '--');
const budget = Number(budgetText);
const limits = limitsText.split(',').map(Number);
const db = new Database(join(cache, 'docweb.sqlite'), { readonly: true });
const topics = db.prepare('SELECT name FROM topics ORDER BY name').all() as { name: string }[];
const pagesOf = db.prepare('SELECT p.url FROM labels l JOIN pages p ON p.id = l.page_id WHERE l.topic = ?');
console.log(
  `| topic | relevant pages | relevant sites | sites with >= 100 | ${limits.map((b) => `bound at b = ${b}`).join(' | ')} |`,
);
console.log(`|---|---:|---:|---:|${limits.map(() => '---:').join('|')}|`);
for (const { name } of topics) {
  const perSite = new Map<string, number>();
  for (const { url } of pagesOf.all(name) as { url: string }[]) {
    const host = new URL(url).hostname.replace(/^www\./, '');
    perSite.set(host, (perSite.get(host) ?? 0) + 1);
  }
  const counts = [...perSite.values()];
  const bound = (b: number) =>
    Math.min(
      budget,
      counts.reduce((s, n) => s + Math.min(b, n), 0),
    ) / budget;
  const cells = limits.map((b) => `${(100 * bound(b)).toFixed(1)}%`);
  const total = counts.reduce((s, n) => s + n, 0);
  console.log(
    `| ${name} | ${total} | ${counts.length} | ${counts.filter((n) => n >= 100).length} | ${cells.join(' | ')} |`,
  );
}
db.close();
