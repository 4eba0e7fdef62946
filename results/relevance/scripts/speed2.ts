// Page and anchor throughput per CPU second (process.cpuUsage, so other load on the machine matters less) and per wall second.
import { readFileSync } from 'node:fs';
import { trainModel } from '../../../src/relevance/training.js';
import { loadWordVectors } from '../../../src/text/vector-cache.js';
import { createRng } from '../../../src/common/rng.js';
const [name = 'hardware', modelList = 'svm,nb,kwbilstm'] = process.argv.slice(2);
const ds = JSON.parse(readFileSync(`.tmp/rel/ds-${name}.json`, 'utf8'));
const vectors = await loadWordVectors();
const rng = createRng('bench').fork('speed');
const pages = rng.shuffle([...ds.docs]).slice(0, 300);
const allAnchors = ds.docs.flatMap((d: any) => d.links.map(([url, anchorText]: [string, string]) => ({ url, anchorText })));
const anchors = rng.shuffle(allAnchors).slice(0, 10000);
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
for (const m of modelList.split(',')) {
  const tm = await trainModel(m as any, ds.docs, { vectors, topic: { keywords: ds.keywords, keyphrases: ds.keyphrases }, config: { seed: 'bench', bilstm: { maxEpochs: 1 } } });
  await tm.model.scorePages(pages.slice(0, 20)); await tm.model.scoreAnchors(anchors.slice(0, 200));
  const rep = 3;
  let c = cpu(), w = performance.now();
  for (let r = 0; r < rep; r++) for (const p of pages) await tm.model.scorePages([p]); // one page per call, as the crawl loop scores
  const pc = rep * pages.length / (cpu() - c), pw = rep * pages.length / ((performance.now() - w) / 1000);
  c = cpu(); w = performance.now();
  for (let r = 0; r < rep; r++) await tm.model.scoreAnchors(anchors);
  const ac = rep * anchors.length / (cpu() - c), aw = rep * anchors.length / ((performance.now() - w) / 1000);
  console.log(`${name}\t${m}\tpages/cpu-s ${pc.toFixed(0)}\tpages/wall-s ${pw.toFixed(0)}\tanchors/cpu-s ${ac.toFixed(0)}\tanchors/wall-s ${aw.toFixed(0)}`);
  tm.model.dispose();
}
