/**
 * Sums a V8 CPU profile (`.cpuprofile`, as `node --cpu-prof` or the inspector's Profiler write
 * it) into self time by function and by source file: what part of the process the time went to.
 */

/** The parts of a `.cpuprofile` this reads. */
export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }[];
  startTime: number;
  endTime: number;
  samples: number[];
  /** Microseconds since the previous sample. */
  timeDeltas: number[];
}

/** Self time of one function or file, in milliseconds. */
export interface SelfTime {
  name: string;
  ms: number;
}

/** Self time by function and by file, largest first. */
export interface ProfileSummary {
  totalMs: number;
  byFunction: SelfTime[];
  byFile: SelfTime[];
}

/** The file of a call frame: its path from `src/` or `node_modules/<package>` when it has one. */
function fileOf(url: string): string {
  if (url === '') return '(native)';
  const dist = url.match(/\/(?:dist|dist-bench)\/(.*)$/);
  if (dist) return dist[1] as string;
  const mod = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (mod) return `node_modules/${mod[1]}`;
  return url.replace(/^.*\/(node:)?/, '');
}

/** Sums the self time of every sample of `profile` by function and by file. */
export function summarizeCpuProfile(profile: CpuProfile): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
  // A native frame (no URL: SQLite's run, a socket write) counts in the file table towards the
  // nearest caller with a source file, so that file tables show which part paid for it.
  const callerFile = (id: number): string => {
    let at: number | undefined = id;
    while (at !== undefined) {
      const url = byId.get(at)?.callFrame.url ?? '';
      if (url !== '') return fileOf(url);
      at = parentOf.get(at);
    }
    return '(native)';
  };
  const fn = new Map<string, number>();
  const file = new Map<string, number>();
  let totalUs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i] as number);
    // The delta before a sample is the time it stands for (V8 records one delta per sample).
    const us = profile.timeDeltas[i] ?? 0;
    if (!node) continue;
    totalUs += us;
    const f = node.callFrame;
    const where = fileOf(f.url);
    const key = `${f.functionName || '(anonymous)'} ${where}:${f.lineNumber + 1}`;
    fn.set(key, (fn.get(key) ?? 0) + us);
    const isVmState = f.url === '' && f.functionName.startsWith('(');
    const paidBy = isVmState ? f.functionName : f.url === '' ? callerFile(node.id) : where;
    file.set(paidBy, (file.get(paidBy) ?? 0) + us);
  }
  const sorted = (m: Map<string, number>): SelfTime[] =>
    [...m.entries()].map(([name, us]) => ({ name, ms: us / 1000 })).sort((a, b) => b.ms - a.ms);
  return { totalMs: totalUs / 1000, byFunction: sorted(fn), byFile: sorted(file) };
}
