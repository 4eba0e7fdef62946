/**
 * Out-links of a synthetic page, computed from the page's own random stream.
 *
 * 1. Structure first, so every page is reachable: page i links to its children 2i+1 and 2i+2 (a
 *    binary tree over the host's internal indices, rooted at the home page); the home page links
 *    its entry pages 1..entryLinksPerHost and the next host's home page (a ring over hosts).
 * 2. Out-degree: log-normal (heavy tail), mean scaled so that the mean over all pages, hubs
 *    included, is `meanOutDegree`; capped at `maxOutDegree`.
 * 3. The other links: a share are broken (missing page, dead host); each of the rest stays on
 *    the host or not, and keeps the topic or not, with probabilities corrected for the structural
 *    links so the page's expected shares equal `shareWithinHost` and `shareWithinTopic`. Targets
 *    inside a topic block are half uniform, half Zipf-biased towards low indices (pages near the
 *    home page get most in-links); cross-host links go to the target's home page 20% of the time
 *    when that home page has the wanted topic. Duplicates and self-links are redrawn (a few
 *    tries, same host and topic choice), so pages of tiny hosts may end up with fewer links.
 *
 * The rendered page also links its home page from its header; that link is not listed here.
 */
import type { Rng } from '../../common/index.js';
import { logNormalInt, pickCumulative, zipfRank } from './distributions.js';
import type { WebModel } from './web-model.js';

/** Where a link of a synthetic page points. */
export type LinkTarget =
  /** An existing page. */
  | { kind: 'page'; host: number; index: number }
  /** A missing page (404) of an existing host; `path` is absolute on that host. */
  | { kind: 'missing'; host: number; path: string }
  /** A host that does not exist (the replay server fails the request fast). */
  | { kind: 'dead-host'; url: string };

/** Share of cross-host links that go to the target host's home page (when it has the wanted topic). */
const HOME_LINK_SHARE = 0.2;

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/** A page of topic `t` on host `g`, or undefined if the host has none. */
function pickInTopic(model: WebModel, rng: Rng, g: number, t: number): number | undefined {
  const block = model.blockOf(g, t);
  if (!block) return undefined;
  const length = block[1] - block[0];
  return block[0] + (rng.next() < 0.5 ? zipfRank(rng, length) : rng.int(length));
}

/** Out-links of page (h, i), structural links first. Deterministic in (seed, h, i). */
export function outLinks(model: WebModel, h: number, i: number): LinkTarget[] {
  const o = model.options;
  const rng = model.pageRng(h, i, 'links');
  const size = model.sizeOf(h);
  const topic = model.topicOf(h, i);
  const isHub = model.isHub(h, i);
  const links: LinkTarget[] = [];
  const seen = new Set<number>([model.globalId(h, i)]);
  const addPage = (g: number, j: number): boolean => {
    const id = model.globalId(g, j);
    if (seen.has(id)) return false;
    seen.add(id);
    links.push({ kind: 'page', host: g, index: j });
    return true;
  };

  let structuralSameHost = 0;
  let structuralSameTopic = 0;
  const lastChild = i === 0 ? Math.max(2, o.entryLinksPerHost) : 2 * i + 2;
  for (let child = i === 0 ? 1 : 2 * i + 1; child <= lastChild && child < size; child++) {
    addPage(h, child);
    structuralSameHost++;
    if (model.topicOf(h, child) === topic) structuralSameTopic++;
  }
  if (i === 0 && model.hostCount > 1) {
    const next = (h + 1) % model.hostCount;
    addPage(next, 0);
    if ((model.table.mainTopic[next] as number) === topic) structuralSameTopic++;
  }
  const structural = links.length;

  const hubFactor = 1 - o.hubShare + o.hubShare * o.hubDegreeFactor;
  const mean = (o.meanOutDegree / hubFactor) * (isHub ? o.hubDegreeFactor : 1);
  const degree = logNormalInt(rng, mean, o.outDegreeSigma, 1, o.maxOutDegree);
  const wanted = i === 0 ? degree : Math.max(0, degree - structural);
  if (wanted === 0) return links;
  const total = wanted + structural;
  const shareHost = isHub
    ? o.hubShareWithinHost
    : Math.min(1, o.shareWithinHost * model.table.withinHostScale);
  const pSameHost = clamp01((shareHost * total - structuralSameHost) / wanted);
  const pSameTopic = clamp01((o.shareWithinTopic * total - structuralSameTopic) / wanted);
  const topicCount = o.topics.length;
  const hostTopics = model.topicsOnHost(h);

  // One draw per wanted link. A duplicate is redrawn with the same (host, topic) choice; only when
  // the host is saturated (small hosts) does the link go to another host, as the pages of small
  // sites link out more. Redrawing every category would tilt all shares towards other hosts.
  for (let slot = 0; slot < wanted; slot++) {
    const u = rng.next();
    if (u < o.brokenLinkShare) {
      links.push({ kind: 'missing', host: h, path: `/p/${size - 1 + rng.int(1000)}.html` });
      continue;
    }
    if (u < o.brokenLinkShare + o.deadHostLinkShare) {
      const word = model.vocabulary.commonWords[rng.int(model.vocabulary.commonWords.length)];
      const path = rng.next() < 0.5 ? '/' : `/p/${rng.int(1000)}.html`;
      links.push({ kind: 'dead-host', url: `http://${word}-${1 + rng.int(999)}.test${path}` });
      continue;
    }
    const isSameHost = rng.next() < pSameHost || model.hostCount === 1;
    const isSameTopic = rng.next() < pSameTopic || topicCount === 1;
    let target = topic;
    if (isSameHost && !isSameTopic) {
      const others = hostTopics.filter((t) => t !== topic);
      if (others.length > 0) target = others[rng.int(others.length)] as number;
    } else if (!isSameHost && !isSameTopic) {
      target = (topic + 1 + rng.int(topicCount - 1)) % topicCount;
    }
    for (let tries = 0; tries < 8; tries++) {
      let g = h;
      let j: number | undefined;
      if (isSameHost && tries < 4) {
        j = pickInTopic(model, rng, h, target);
      } else {
        const cumulative = model.table.topicCumulative[target] as Float64Array;
        for (let redraws = 0; redraws < 3 && g === h; redraws++) g = pickCumulative(cumulative, rng);
        const home = (model.table.mainTopic[g] as number) === target && rng.next() < HOME_LINK_SHARE;
        j = home ? 0 : pickInTopic(model, rng, g, target);
      }
      if ((j === undefined && !isSameHost) || (j !== undefined && addPage(g, j))) break;
    }
  }
  return links;
}
