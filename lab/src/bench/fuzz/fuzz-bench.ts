/**
 * `npm run bench -- fuzz`: a long fuzz of the parsers and URL code. For each
 * target (normalizeUrl, the URL filter, parseHtml, parseMetaRefreshUrl, the robots.txt matcher)
 * runs a few directed hostile inputs and then `inputsPerTarget` generated ones (the property
 * tests' fast-check arbitraries, fixed seed), and counts throws, broken properties (e.g. a URL
 * whose normal form is not its own normal form) and the slowest call. Writes
 * results/fuzz.json and results/fuzz.md.
 */
import fc from 'fast-check';
import { systemClock } from 'tres-crawler';
import { type BenchEnv, benchEnv, writeResults } from '../bench-env.js';
import { FUZZ_TARGETS, type FuzzTarget } from './fuzz-targets.js';

/** Options of {@link runFuzzBench}. */
export interface FuzzBenchOptions {
  /** Generated inputs per target (directed ones come on top). @default 1_000_000 */
  inputsPerTarget?: number;
  /** Seed of the generated inputs; batch `b` is drawn with seed `seed + b`. @default 10 */
  seed?: number;
  /** Inputs drawn at a time. @default 10_000 */
  batchSize?: number;
  /** Names of the targets to run. @default every target */
  targets?: readonly string[];
  /** Folder of fuzz.json and fuzz.md. */
  resultsDir: string;
  /** Run the directed hostile inputs (several seconds: 5 MB pages, a 480 KB robots.txt). @default true */
  shouldRunDirected?: boolean;
  /** Print progress lines. @default true */
  isVerbose?: boolean;
}

/** One throw or broken property, with the input that caused it (cut to 300 characters). */
export interface FuzzExample {
  kind: 'throw' | 'violation';
  message: string;
  inputChars: number;
  input: string;
}

/** What one target gave. */
export interface FuzzTargetResult {
  name: string;
  description: string;
  inputs: number;
  directedInputs: number;
  throws: number;
  /** Broken properties by name (e.g. `not idempotent`). */
  violations: Record<string, number>;
  /** The first 10 throws and violations. */
  examples: FuzzExample[];
  slowest: { ms: number; inputChars: number; label: string };
  /** Slowest call among the generated inputs only (a garbage collection may fall into it). */
  slowestGenerated: { ms: number; inputChars: number; input: string };
  /**
   * The 20 slowest generated inputs run again (best of 3 each), the slowest of them: what an
   * input costs, without the pauses that happened to fall into its first call.
   */
  slowestRetimed: { ms: number; inputChars: number; input: string };
  meanMicros: number;
  seconds: number;
}

export interface FuzzBenchResult {
  env: BenchEnv;
  config: Required<Omit<FuzzBenchOptions, 'resultsDir' | 'isVerbose' | 'targets'>> & { targets: string[] };
  targets: FuzzTargetResult[];
}

const MAX_EXAMPLES = 10;
const EXAMPLE_CHARS = 300;

/** Runs the fuzz, writes its results and returns them. */
export async function runFuzzBench(options: FuzzBenchOptions): Promise<FuzzBenchResult> {
  const config = {
    inputsPerTarget: options.inputsPerTarget ?? 1_000_000,
    seed: options.seed ?? 10,
    batchSize: options.batchSize ?? 10_000,
    shouldRunDirected: options.shouldRunDirected ?? true,
    targets: [...(options.targets ?? FUZZ_TARGETS.map((t) => t.name))],
  };
  const isVerbose = options.isVerbose ?? true;
  const results: FuzzTargetResult[] = [];
  for (const target of FUZZ_TARGETS.filter((t) => config.targets.includes(t.name))) {
    const result = await fuzzTarget(target as FuzzTarget<unknown>, config, isVerbose);
    results.push(result);
    if (isVerbose) console.log(summaryLine(result));
  }
  const out: FuzzBenchResult = { env: benchEnv(), config, targets: results };
  const paths = writeResults(options.resultsDir, 'fuzz', out, markdown(out));
  if (isVerbose) console.log(`wrote ${paths.json} and ${paths.md}`);
  return out;
}

async function fuzzTarget(
  target: FuzzTarget<unknown>,
  config: { inputsPerTarget: number; seed: number; batchSize: number; shouldRunDirected: boolean },
  isVerbose: boolean,
): Promise<FuzzTargetResult> {
  const clock = systemClock;
  const result: FuzzTargetResult = {
    name: target.name,
    description: target.description,
    inputs: 0,
    directedInputs: 0,
    throws: 0,
    violations: {},
    examples: [],
    slowest: { ms: -1, inputChars: 0, label: '' },
    slowestGenerated: { ms: -1, inputChars: 0, input: '' },
    slowestRetimed: { ms: -1, inputChars: 0, input: '' },
    meanMicros: 0,
    seconds: 0,
  };
  const startedMs = clock.monotonicMs();
  let generatedMs = 0;
  const slowInputs: { ms: number; input: unknown }[] = [];
  /** Times one call; a throw is returned, not thrown. */
  const timeCall = async (
    input: unknown,
  ): Promise<{ ms: number; violation?: string; hasThrown?: boolean; error?: unknown }> => {
    const start = clock.monotonicMs();
    try {
      const violation = await target.run(input);
      const ms = clock.monotonicMs() - start;
      return violation === undefined ? { ms } : { ms, violation };
    } catch (error) {
      return { ms: clock.monotonicMs() - start, hasThrown: true, error };
    }
  };
  const runOne = async (input: unknown): Promise<number> => {
    const { ms, violation, hasThrown, error } = await timeCall(input);
    if (hasThrown) {
      result.throws++;
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      record(result, target, input, 'throw', message);
    }
    if (violation !== undefined) {
      result.violations[violation] = (result.violations[violation] ?? 0) + 1;
      record(result, target, input, 'violation', violation);
    }
    return ms;
  };

  for (const { label, input } of config.shouldRunDirected ? target.directed() : []) {
    const ms = await runOne(input);
    result.directedInputs++;
    if (ms > result.slowest.ms) result.slowest = { ms, inputChars: target.size(input), label };
  }
  for (let batch = 0; result.inputs < config.inputsPerTarget; batch++) {
    const count = Math.min(config.batchSize, config.inputsPerTarget - result.inputs);
    for (const input of fc.sample(target.inputs, { seed: config.seed + batch, numRuns: count })) {
      const ms = await runOne(input);
      generatedMs += ms;
      result.inputs++;
      keepSlowest(slowInputs, { ms, input });
      if (ms > result.slowestGenerated.ms) {
        result.slowestGenerated = { ms, inputChars: target.size(input), input: cut(target.show(input)) };
      }
      if (ms > result.slowest.ms) result.slowest = { ms, inputChars: target.size(input), label: 'generated' };
    }
    if (isVerbose && (batch + 1) % 20 === 0) {
      console.log(`  ${target.name}: ${result.inputs} inputs, ${result.throws} throws`);
    }
  }
  for (const { input } of slowInputs) {
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 3; i++) best = Math.min(best, (await timeCall(input)).ms);
    if (best > result.slowestRetimed.ms) {
      result.slowestRetimed = { ms: best, inputChars: target.size(input), input: cut(target.show(input)) };
    }
  }
  result.meanMicros = result.inputs === 0 ? 0 : (generatedMs * 1000) / result.inputs;
  result.seconds = (clock.monotonicMs() - startedMs) / 1000;
  return result;
}

const SLOW_INPUTS_KEPT = 20;

/** Keeps the `SLOW_INPUTS_KEPT` slowest calls in `kept` (unordered). */
function keepSlowest(kept: { ms: number; input: unknown }[], call: { ms: number; input: unknown }): void {
  if (kept.length < SLOW_INPUTS_KEPT) {
    kept.push(call);
    return;
  }
  let fastest = 0;
  for (let i = 1; i < kept.length; i++) if ((kept[i]?.ms ?? 0) < (kept[fastest]?.ms ?? 0)) fastest = i;
  if (call.ms > (kept[fastest]?.ms ?? 0)) kept[fastest] = call;
}

function record(
  result: FuzzTargetResult,
  target: FuzzTarget<unknown>,
  input: unknown,
  kind: FuzzExample['kind'],
  message: string,
): void {
  if (result.examples.length >= MAX_EXAMPLES) return;
  result.examples.push({ kind, message, inputChars: target.size(input), input: cut(target.show(input)) });
}

function cut(s: string): string {
  return s.length <= EXAMPLE_CHARS ? s : `${s.slice(0, EXAMPLE_CHARS)}… (${s.length} characters)`;
}

function violationCount(r: FuzzTargetResult): number {
  return Object.values(r.violations).reduce((a, b) => a + b, 0);
}

function summaryLine(r: FuzzTargetResult): string {
  return (
    `${r.name}: ${r.inputs} generated + ${r.directedInputs} directed inputs, ${r.throws} throws, ` +
    `${violationCount(r)} violations, slowest ${r.slowest.ms.toFixed(1)} ms (${r.slowest.inputChars} chars, ` +
    `${r.slowest.label}), slowest generated ${r.slowestGenerated.ms.toFixed(2)} ms ` +
    `(${r.slowestGenerated.inputChars} chars; re-timed, the slowest input costs ` +
    `${r.slowestRetimed.ms.toFixed(2)} ms, ${r.slowestRetimed.inputChars} chars), mean ${r.meanMicros.toFixed(1)} µs, ${r.seconds.toFixed(0)} s`
  );
}

function markdown(out: FuzzBenchResult): string {
  const lines = [
    '# Fuzz of the parsers and URL code',
    '',
    `\`${out.env.command}\` at ${out.env.commit}, ${out.env.date}; ${out.env.cpu} (${out.env.cores} cores), Node ${out.env.node}.`,
    `${out.config.inputsPerTarget.toLocaleString('en')} generated inputs per target (fast-check, seed ${out.config.seed} + batch), plus directed hostile inputs.`,
    '',
    '| target | inputs | directed | throws | violations | slowest call | slowest generated | slowest re-timed | mean | time |',
    '|---|---:|---:|---:|---:|---|---|---|---:|---:|',
  ];
  for (const r of out.targets) {
    const violations = Object.entries(r.violations)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ');
    lines.push(
      `| ${r.name} | ${r.inputs.toLocaleString('en')} | ${r.directedInputs} | ${r.throws} | ${violations || 0} | ` +
        `${r.slowest.ms.toFixed(1)} ms, ${r.slowest.inputChars.toLocaleString('en')} chars (${r.slowest.label}) | ` +
        `${r.slowestGenerated.ms.toFixed(2)} ms, ${r.slowestGenerated.inputChars} chars | ` +
        `${r.slowestRetimed.ms.toFixed(3)} ms, ${r.slowestRetimed.inputChars} chars | ` +
        `${r.meanMicros.toFixed(1)} µs | ${r.seconds.toFixed(0)} s |`,
    );
  }
  lines.push(
    '',
    '"Slowest generated" is the longest first call, garbage-collection pauses included; "slowest',
    're-timed" runs the 20 slowest generated inputs again (best of 3) and gives the costliest.',
    '',
    'What each target calls and checks:',
    '',
  );
  for (const r of out.targets) lines.push(`- **${r.name}**: ${r.description}.`);
  const withExamples = out.targets.filter((r) => r.examples.length > 0);
  if (withExamples.length > 0) {
    lines.push('', '## Examples', '');
    for (const r of withExamples) {
      for (const e of r.examples)
        lines.push(`- ${r.name}, ${e.kind} (${e.message}): \`${JSON.stringify(e.input)}\``);
    }
  }
  return `${lines.join('\n')}\n`;
}
