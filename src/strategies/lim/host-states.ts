/**
 * The state of Lim's parse/skip decision (thesis section 5.2.1): four booleans from per-host
 * counts and relevance sums, 2^4 = 16 states.
 *
 *   1. host parse-skip ratio:  N_sp = 0, or (N_ss > 0 and N_sp / N_ss < x), x = 1
 *   2. previous host relevant: N_pp > 0 and R_prev / T_prev >= 2/3
 *   3. current host relevant:  N_sp = 0, or (N_sp > 0 and R_same / T_same >= 2/3)
 *   4. URL relevant:           relevance(URL) >= 2/3
 *
 * N_sp, N_ss: pages of this host parsed (links followed) and skipped; N_pp: pages of the previous
 * host parsed; R, T: relevance sum and number of fetched pages of a host. Choices where the
 * thesis is open:
 * - feature 3 reads "True if R_same = 0" in the formula but "(a) no web page belonging to the
 *   same host was parsed before" in the text; we follow the text (N_sp = 0), since the formula
 *   would call every host with no relevant page relevant;
 * - T (undefined in the thesis) is the number of fetched pages of the host, so R / T is the mean
 *   relevance; every fetched page has its relevance scored before the decision, as in the
 *   modified DFS (section 5.1 steps 4-5 come before steps 7-8);
 * - "previous host" is the most recent host other than the current one among fetched pages (the
 *   host whose outgoing links are assumed to lead to the current one).
 */

/** Counts of one host. */
interface HostRecord {
  parsed: number;
  skipped: number;
  relevanceSum: number;
  pages: number;
}

/** Thresholds of the four features. */
export interface StateThresholds {
  /** x of feature 1 (>= 1). */
  parseSkipRatio: number;
  /** x of features 2-4. */
  relevanceThreshold: number;
}

/** Length of {@link HostStates.features}. */
export const REAL_FEATURE_COUNT = 7;

/** Number of states: four boolean features. */
export const STATE_COUNT = 16;

/** State index of four features (feature 1 is the highest bit). */
export function stateIndex(f1: boolean, f2: boolean, f3: boolean, f4: boolean): number {
  return (f1 ? 8 : 0) | (f2 ? 4 : 0) | (f3 ? 2 : 0) | (f4 ? 1 : 0);
}

/** Number of true features of a state: the thesis' reward R(s) (section 5.2.3). */
export function trueFeatureCount(state: number): number {
  return (state & 1) + ((state >> 1) & 1) + ((state >> 2) & 1) + ((state >> 3) & 1);
}

/** The state as the thesis prints it, e.g. "(T,F,T,T)". */
export function describeState(state: number): string {
  const bit = (b: number) => ((state >> b) & 1 ? 'T' : 'F');
  return `(${bit(3)},${bit(2)},${bit(1)},${bit(0)})`;
}

/** Per-host counts and the state of a decision. */
export class HostStates {
  private readonly hosts = new Map<string, HostRecord>();
  private lastHost: string | undefined;
  /** The most recent host other than `lastHost`. */
  private previousHost: string | undefined;

  constructor(private readonly thresholds: StateThresholds) {}

  /** Number of hosts seen. */
  get hostCount(): number {
    return this.hosts.size;
  }

  /** Records a fetched page's relevance (before its decision) and makes its host the current one. */
  recordPage(host: string, relevance: number): void {
    const r = this.record(host);
    r.relevanceSum += relevance;
    r.pages++;
    if (host !== this.lastHost) {
      this.previousHost = this.lastHost;
      this.lastHost = host;
    }
  }

  /** Records the decision taken for a page of `host`. */
  recordDecision(host: string, isParse: boolean): void {
    const r = this.record(host);
    if (isParse) r.parsed++;
    else r.skipped++;
  }

  /** The state of a decision for a page of `host` (the current host) whose URL has `urlRelevance`. */
  state(host: string, urlRelevance: number): number {
    const x = this.thresholds.relevanceThreshold;
    const same = this.hosts.get(host);
    const nsp = same?.parsed ?? 0;
    const nss = same?.skipped ?? 0;
    const f1 = nsp === 0 || (nss > 0 && nsp / nss < this.thresholds.parseSkipRatio);
    const prev = this.previousHost === undefined ? undefined : this.hosts.get(this.previousHost);
    const f2 = prev !== undefined && prev.parsed > 0 && prev.relevanceSum / prev.pages >= x;
    const f3 = nsp === 0 || (same !== undefined && same.relevanceSum / same.pages >= x);
    const f4 = urlRelevance >= x;
    return stateIndex(f1, f2, f3, f4);
  }

  /**
   * The same quantities before they are cut into booleans (section 5.2.1's list; `lim-q:realState=1`),
   * each in [0, 1]: [1 (bias), N_sp / (N_sp + N_ss + 1), mean relevance of the previous host (0 if
   * none), mean relevance of this host (this page included), URL relevance, N_pp / (N_pp + 10),
   * this page's relevance]. The last is the newest term of R_same, scored in steps 4-5 just
   * before the decision; the booleans only see it diluted in the host's mean. The scalings that
   * bring the counts into [0, 1] (+1 and +10) are our choice; the thesis has no real-valued state.
   */
  features(host: string, urlRelevance: number, pageRelevance: number): Float64Array {
    const same = this.hosts.get(host);
    const nsp = same?.parsed ?? 0;
    const nss = same?.skipped ?? 0;
    const prev = this.previousHost === undefined ? undefined : this.hosts.get(this.previousHost);
    const mean = (r: HostRecord | undefined) =>
      r === undefined || r.pages === 0 ? 0 : r.relevanceSum / r.pages;
    const npp = prev?.parsed ?? 0;
    return Float64Array.of(
      1,
      nsp / (nsp + nss + 1),
      mean(prev),
      mean(same),
      urlRelevance,
      npp / (npp + 10),
      pageRelevance,
    );
  }

  private record(host: string): HostRecord {
    let r = this.hosts.get(host);
    if (r === undefined) {
      r = { parsed: 0, skipped: 0, relevanceSum: 0, pages: 0 };
      this.hosts.set(host, r);
    }
    return r;
  }
}
