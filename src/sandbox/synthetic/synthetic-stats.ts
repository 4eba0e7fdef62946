/**
 * Measured statistics of a synthetic web's link graph and labels, to check the generator against
 * its options and to print with `tres sandbox generate`.
 */
import { createRng } from '../../common/index.js';
import type { SyntheticWeb } from './synthetic-web.js';

/** Statistics over the pages scanned (all, or a seeded sample). Shares are in [0, 1]. */
export interface SyntheticWebStats {
  /** Pages scanned. */
  pagesScanned: number;
  /** Hosts of the web. */
  hostCount: number;
  /** Distinct registrable domains. */
  domainCount: number;
  /** Hosts that share their registrable domain with another host. */
  subdomainHostCount: number;
  /** Pages of the largest host. */
  largestHostPages: number;
  /** Pages of the smallest host. */
  smallestHostPages: number;
  /** Share of scanned pages labelled relevant. */
  relevantShare: number;
  /** Hosts whose home page is relevant. */
  relevantHostCount: number;
  /** Mean out-links per page (all kinds, hubs included). */
  meanOutDegree: number;
  /** Median out-links per page. */
  medianOutDegree: number;
  /** 99th percentile of out-links per page. */
  p99OutDegree: number;
  /** Most out-links of one page. */
  maxOutDegree: number;
  /** Hub pages among those scanned. */
  hubCount: number;
  /** Among links of non-hub pages to existing pages, share on the same host. */
  shareWithinHost: number;
  /** Among links of all pages to existing pages, share on the same host. */
  shareWithinHostAll: number;
  /** Among links to existing pages, share whose target has the source's topic. */
  shareWithinTopic: number;
  /** Share of links to missing pages of existing hosts. */
  brokenShare: number;
  /** Share of links to hosts that do not exist. */
  deadHostShare: number;
  /** Largest in-degree among pages (full scans only; 0 for samples). */
  maxInDegree: number;
}

/**
 * Computes {@link SyntheticWebStats}: over every page when `sample` is omitted or >= pageCount,
 * else over `sample` pages drawn with a seeded RNG (no in-degrees then).
 */
export function syntheticWebStats(web: SyntheticWeb, sample?: number): SyntheticWebStats {
  const isFull = sample === undefined || sample >= web.pageCount;
  const count = isFull ? web.pageCount : sample;
  const rng = createRng(`${web.options.seed}`).fork('stats');
  const { offsets, sizes, mainTopic } = web.table;
  const relevant = web.options.topics.indexOf(web.options.relevantTopic);
  const inDegree = isFull ? new Int32Array(web.pageCount) : undefined;
  const degrees: number[] = [];
  let relevantPages = 0;
  let hubs = 0;
  let regularLinks = 0;
  let regularSameHost = 0;
  let pageLinks = 0;
  let sameHost = 0;
  let sameTopic = 0;
  let broken = 0;
  let dead = 0;
  for (let k = 0; k < count; k++) {
    const { host, index } = web.pageAt(isFull ? k : rng.int(web.pageCount));
    const topic = web.topicAt(host, index);
    if (topic === web.options.relevantTopic) relevantPages++;
    const links = web.outLinks(host, index);
    degrees.push(links.length);
    const isHub = web.isHub(host, index);
    if (isHub) hubs++;
    for (const link of links) {
      if (link.kind === 'missing') broken++;
      else if (link.kind === 'dead-host') dead++;
      else {
        pageLinks++;
        const isSameHost = link.host === host;
        if (isSameHost) sameHost++;
        if (!isHub) {
          regularLinks++;
          if (isSameHost) regularSameHost++;
        }
        if (web.topicAt(link.host, link.index) === topic) sameTopic++;
        if (inDegree) {
          const target = (offsets[link.host] as number) + link.index;
          inDegree[target] = (inDegree[target] as number) + 1;
        }
      }
    }
  }
  degrees.sort((a, b) => a - b);
  const allLinks = pageLinks + broken + dead;
  const domainCounts = new Map<string, number>();
  for (const domain of web.table.domains) domainCounts.set(domain, (domainCounts.get(domain) ?? 0) + 1);
  return {
    pagesScanned: count,
    hostCount: sizes.length,
    domainCount: domainCounts.size,
    subdomainHostCount: web.table.domains.filter((d) => (domainCounts.get(d) as number) > 1).length,
    largestHostPages: Math.max(...sizes),
    smallestHostPages: Math.min(...sizes),
    relevantShare: relevantPages / count,
    relevantHostCount: mainTopic.filter((t) => t === relevant).length,
    meanOutDegree: allLinks / count,
    medianOutDegree: degrees[Math.floor(count / 2)] ?? 0,
    p99OutDegree: degrees[Math.floor(count * 0.99)] ?? 0,
    maxOutDegree: degrees[count - 1] ?? 0,
    hubCount: hubs,
    shareWithinHost: regularSameHost / Math.max(1, regularLinks),
    shareWithinHostAll: sameHost / Math.max(1, pageLinks),
    shareWithinTopic: sameTopic / Math.max(1, pageLinks),
    brokenShare: broken / Math.max(1, allLinks),
    deadHostShare: dead / Math.max(1, allLinks),
    maxInDegree: inDegree ? inDegree.reduce((a, b) => Math.max(a, b), 0) : 0,
  };
}
