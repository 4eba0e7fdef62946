/**
 * The only state of a synthetic web held in memory: one row per host (name, size, topic mixture,
 * first global page id). Pages themselves are computed on demand from (seed, host, index).
 *
 * Inside a host, pages are numbered 0..size-1 ("internal index"; 0 is the home page `/`) and
 * grouped in contiguous blocks, one per topic of the host's mixture, the main topic first. So the
 * topic of a page is a lookup in at most {@link MAX_BLOCKS} numbers, and a random page of a given
 * topic is a random index inside that topic's block.
 */
import { createRng } from '../../common/index.js';
import { zipfSizes } from './distributions.js';
import { withinHostScale } from './link-calibration.js';
import { mix32 } from './permutation.js';
import type { SyntheticWebOptions } from './synthetic-options.js';
import type { Vocabulary } from './vocabulary.js';

/** Most topics one host mixes. */
export const MAX_BLOCKS = 4;

/** Subdomain labels given to the extra hosts of a registrable domain, in order. */
const SUBDOMAIN_LABELS = ['blog', 'docs', 'shop', 'forum', 'news', 'wiki', 'support', 'help', 'store', 'www'];

/** Host rows of a synthetic web, in rank order (host 0 is the largest). */
export interface HostTable {
  /** Hostname of each host, e.g. `www.velkora.test`, `blog.velkora.test`. */
  names: string[];
  /** Registrable domain of each host (`velkora.test`); several hosts may share one. */
  domains: string[];
  /** Host index by hostname. */
  byName: Map<string, number>;
  /** Pages of each host, home page included. */
  sizes: Int32Array;
  /** Global id of each host's page 0; `offsets[hostCount]` is the page count. */
  offsets: Float64Array;
  /** Main topic index of each host (the topic of its home page). */
  mainTopic: Uint8Array;
  /** Topic of each block, `[host * MAX_BLOCKS + b]`; -1 after the host's last block. */
  blockTopic: Int8Array;
  /** Exclusive end (internal index) of each block, `[host * MAX_BLOCKS + b]`. */
  blockEnd: Int32Array;
  /** Per topic, cumulative count over hosts of that topic's pages (for weighted host picks). */
  topicCumulative: Float64Array[];
  /** Key of each host's page-number permutation. */
  permutationKeys: Uint32Array;
  /** Scale of regular pages' within-host probability (see `link-calibration.ts`). */
  withinHostScale: number;
}

/** Topic mixture of one host as (topic, weight) pairs, main topic first. */
function mixtureOf(
  o: SyntheticWebOptions,
  rng: ReturnType<typeof createRng>,
  main: number,
): Array<[number, number]> {
  const topicCount = o.topics.length;
  const others = rng.shuffle([...Array(topicCount).keys()].filter((t) => t !== main));
  if (others.length > 0 && rng.next() < o.mixedHostShare) {
    const extra = 1 + rng.int(Math.min(MAX_BLOCKS - 1, others.length));
    const weights = Array.from({ length: extra + 1 }, () => -Math.log(1 - rng.next())).sort((a, b) => b - a);
    const sum = weights.reduce((a, b) => a + b, 0);
    return weights.map((w, k) => [k === 0 ? main : (others[k - 1] as number), w / sum]);
  }
  const minor = others.slice(0, Math.min(others.length, 1 + rng.int(2)));
  return [
    [main, o.hostPurity],
    ...minor.map((t): [number, number] => [t, (1 - o.hostPurity) / minor.length]),
  ];
}

/** Builds the host table. Deterministic in the options. */
export function buildHostTable(o: SyntheticWebOptions, vocabulary: Vocabulary): HostTable {
  const hostCount = o.hostCount;
  const topicCount = o.topics.length;
  const seedRng = createRng(`${o.seed}`).fork('hosts');
  const sizes = zipfSizes(o.pageCount, hostCount, o.hostSizeExponent);
  const offsets = new Float64Array(hostCount + 1);
  for (let h = 0; h < hostCount; h++) offsets[h + 1] = (offsets[h] as number) + (sizes[h] as number);

  // Main topics: each host in rank order goes to the topic with the fewest hosts so far, ties to
  // the fewest pages, then to a seeded order; so topics get equal host counts and the big hosts
  // are spread over topics (a snake draft).
  const topicOrder = seedRng.fork('topic-order').shuffle([...Array(topicCount).keys()]);
  const hostsPerTopic = new Array<number>(topicCount).fill(0);
  const pagesPerTopic = new Array<number>(topicCount).fill(0);
  const mainTopic = new Uint8Array(hostCount);
  const blockTopic = new Int8Array(hostCount * MAX_BLOCKS).fill(-1);
  const blockEnd = new Int32Array(hostCount * MAX_BLOCKS);
  const topicCounts = Array.from({ length: topicCount }, () => new Float64Array(hostCount));
  for (let h = 0; h < hostCount; h++) {
    let main = topicOrder[0] as number;
    for (const t of topicOrder) {
      const better =
        (hostsPerTopic[t] as number) < (hostsPerTopic[main] as number) ||
        (hostsPerTopic[t] === hostsPerTopic[main] &&
          (pagesPerTopic[t] as number) < (pagesPerTopic[main] as number));
      if (better) main = t;
    }
    const size = sizes[h] as number;
    hostsPerTopic[main] = (hostsPerTopic[main] as number) + 1;
    pagesPerTopic[main] = (pagesPerTopic[main] as number) + size;
    mainTopic[h] = main;
    const mixture = mixtureOf(o, seedRng.fork(`mixture-${h}`), main);
    const counts = mixture.map(([, w]) => Math.floor(w * size));
    counts[0] = size - counts.slice(1).reduce((a, b) => a + b, 0); // the main topic takes the rounding
    let end = 0;
    let b = 0;
    mixture.forEach(([topic], k) => {
      const count = counts[k] as number;
      if (count <= 0) return;
      end += count;
      blockTopic[h * MAX_BLOCKS + b] = topic;
      blockEnd[h * MAX_BLOCKS + b] = end;
      (topicCounts[topic] as Float64Array)[h] = count;
      b++;
    });
  }
  const topicCumulative = topicCounts.map((counts) => {
    const cumulative = new Float64Array(hostCount);
    let sum = 0;
    for (let h = 0; h < hostCount; h++) {
      sum += counts[h] as number;
      cumulative[h] = sum;
    }
    return cumulative;
  });

  const { names, domains } = nameHosts(o, vocabulary, mainTopic);
  const permutationKeys = new Uint32Array(hostCount);
  for (let h = 0; h < hostCount; h++) permutationKeys[h] = mix32(seedRng.fork(`perm-${h}`).int(2 ** 32));
  return {
    names,
    domains,
    byName: new Map(names.map((name, h) => [name, h])),
    sizes,
    offsets,
    mainTopic,
    blockTopic,
    blockEnd,
    topicCumulative,
    permutationKeys,
    withinHostScale: withinHostScale(o, sizes),
  };
}

/** Hostnames: distinct registrable domains from topic words, some with several subdomains. */
function nameHosts(o: SyntheticWebOptions, vocabulary: Vocabulary, mainTopic: Uint8Array) {
  const rng = createRng(`${o.seed}`).fork('names');
  const names: string[] = [];
  const domains: string[] = [];
  const labelsUsed = new Map<string, number>();
  const takenDomains = new Set<string>();
  const takenNames = new Set<string>();
  for (let h = 0; h < o.hostCount; h++) {
    if (h > 0 && rng.next() < o.subdomainShare) {
      const domain = domains[rng.int(h)] as string;
      const used = labelsUsed.get(domain) ?? 0;
      labelsUsed.set(domain, used + 1);
      const label = SUBDOMAIN_LABELS[used] ?? `site${used}`;
      let name = `${label}.${domain}`;
      if (takenNames.has(name)) name = `s${h}.${domain}`;
      takenNames.add(name);
      names.push(name);
      domains.push(domain);
      continue;
    }
    const topic = mainTopic[h] as number;
    const words = vocabulary.topicWords[topic] as string[];
    let base = words[rng.int(Math.min(words.length, 300))] as string;
    if (rng.next() < 0.3) base = `${rng.pick(vocabulary.keywords[topic] as string[])}-${base}`;
    let domain = `${base}.test`;
    for (let n = 2; takenDomains.has(domain); n++) domain = `${base}${n}.test`;
    takenDomains.add(domain);
    const name = rng.next() < 0.4 ? `www.${domain}` : domain;
    takenNames.add(name);
    names.push(name);
    domains.push(domain);
  }
  return { names, domains };
}

/** Approximate bytes held by a host table (typed arrays, strings, map). */
export function hostTableBytes(table: HostTable): number {
  let bytes = 0;
  for (const array of [table.sizes, table.offsets, table.mainTopic, table.blockTopic, table.blockEnd]) {
    bytes += array.byteLength;
  }
  for (const cumulative of table.topicCumulative) bytes += cumulative.byteLength;
  bytes += table.permutationKeys.byteLength;
  for (const name of table.names) bytes += 2 * (40 + name.length) + 80; // name, domain, map entry
  return bytes;
}
