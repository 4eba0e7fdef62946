/**
 * Micro-benchmark of the DDQN hot path (one function per row, as undici keeps them): Q evaluation
 * per vector at batch sizes 1, 100 and 2,500 (about the number of Tree-Frontier leaves at step
 * 20,000 in the paper), and one training step of the agent with batch 60 and ~50 candidate next
 * actions per transition. Each figure is the median of several timed rounds.
 */
import { createRng } from 'tres-crawler';
import { DdqnAgent, type DdqnConfig, Mlp } from 'tres-crawler/internals';
import { type BenchEnv, benchEnv, writeResults } from '../bench-env.js';

/** Options of {@link runRlBench}. */
export interface RlBenchOptions {
  /** Overrides of the agent's config (feature count, hidden sizes, batch size...). @default {} (the reference values) */
  ddqn: Partial<DdqnConfig>;
  /** Batch sizes of the Q-evaluation rows. @default [1, 100, 2_500] */
  predictBatches: readonly number[];
  /** Mean candidate next actions per transition (uniform in [1, 2 * mean - 1]). @default 50 */
  candidatesPerTransition: number;
  /** Transitions in the replay buffer when the training step is timed. @default 2_000 */
  replayFill: number;
  /** Timed rounds per figure; the median is reported. @default 7 */
  rounds: number;
  /** Least wall time of one round, in milliseconds. @default 200 */
  roundMs: number;
  /** Folder for rl-bench.json and rl-bench.md; `false` writes nothing. @default false */
  resultsDir: string | false;
  /** Seed of the weights and the synthetic data. @default 1 */
  seed: number;
  /** Where the readable lines go. @default console.log */
  log: (line: string) => void;
}

/** The defaults of {@link RlBenchOptions}. */
export const DEFAULT_RL_BENCH_OPTIONS: Readonly<RlBenchOptions> = Object.freeze({
  ddqn: {},
  predictBatches: [1, 100, 2_500],
  candidatesPerTransition: 50,
  replayFill: 2_000,
  rounds: 7,
  roundMs: 200,
  resultsDir: false,
  seed: 1,
  log: (line: string) => console.log(line),
});

/** What {@link runRlBench} measured; times in microseconds. */
export interface RlBenchResult {
  env: BenchEnv;
  options: Omit<RlBenchOptions, 'log'>;
  config: DdqnConfig;
  parameterCount: number;
  /** Q evaluation: per vector and per call, for each batch size. */
  predict: { batch: number; usPerVector: number; usPerCall: number }[];
  /** `Mlp.trainBatch` alone on `batchSize` rows. */
  mlpTrainBatchUs: number;
  /** `DdqnAgent.trainStep`: sample, double-Q targets over all candidates, one Adam step. */
  trainStepUs: number;
  /** Mean candidates per sampled transition in the timed replay. */
  meanCandidates: number;
  /** trainStepUs / trainEvery: the training cost per crawl step, on average. */
  trainUsPerCrawlStep: number;
}

/** Median per-call time (us) of `fn` over `rounds` rounds of at least `roundMs` each. */
function time(fn: () => void, rounds: number, roundMs: number): number {
  let calls = 1;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < calls; i++) fn();
    if (performance.now() - t0 >= roundMs / 4) break; // also warms the JIT up
    calls *= 2;
  }
  calls = Math.max(1, calls * 4);
  const perCall: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    for (let i = 0; i < calls; i++) fn();
    perCall.push(((performance.now() - t0) * 1000) / calls);
  }
  perCall.sort((a, b) => a - b);
  return perCall[Math.floor(perCall.length / 2)]!;
}

/** Runs the benchmark, logs a table, optionally writes JSON and Markdown, and returns the figures. */
export function runRlBench(overrides: Partial<RlBenchOptions> = {}): RlBenchResult {
  const o: RlBenchOptions = { ...DEFAULT_RL_BENCH_OPTIONS, ...overrides };
  const rng = createRng(o.seed);
  const data = rng.fork('data');
  const agent = new DdqnAgent({ config: o.ddqn, rng });
  const c = agent.config;
  const f = c.featureCount;
  const net = agent.online as Mlp;
  const log = o.log;
  log(`rl bench: MLP [${net.layerSizes.join(', ')}], ${net.parameterCount} parameters`);

  const predict: RlBenchResult['predict'] = [];
  for (const batch of o.predictBatches) {
    const xs = Float32Array.from({ length: batch * f }, () => data.next());
    const out = new Float32Array(batch);
    const usPerCall = time(() => agent.q(xs, batch, out), o.rounds, o.roundMs);
    predict.push({ batch, usPerVector: usPerCall / batch, usPerCall });
    log(
      `  Q evaluation, batch ${batch}: ${(usPerCall / batch).toFixed(3)} us/vector (${usPerCall.toFixed(1)} us/call)`,
    );
  }

  const bx = Float32Array.from({ length: c.batchSize * f }, () => data.next());
  const by = Float32Array.from({ length: c.batchSize }, () => data.int(2));
  const scratch = new Mlp({ ...net.options }, rng.fork('scratch'));
  const mlpTrainBatchUs = time(() => scratch.trainBatch(bx, by, c.batchSize), o.rounds, o.roundMs);
  log(`  Mlp.trainBatch, batch ${c.batchSize}: ${mlpTrainBatchUs.toFixed(1)} us`);

  let candidates = 0;
  for (let i = 0; i < o.replayFill; i++) {
    const n = 1 + data.int(2 * o.candidatesPerTransition - 1);
    candidates += n;
    agent.observe({
      x: Float32Array.from({ length: f }, () => data.next()),
      reward: data.int(2),
      nextXs: Float32Array.from({ length: n * f }, () => data.next()),
      isDone: false,
    });
  }
  const meanCandidates = candidates / o.replayFill;
  const trainStepUs = time(() => agent.trainStep(), o.rounds, o.roundMs);
  const trainUsPerCrawlStep = trainStepUs / c.trainEvery;
  log(
    `  DdqnAgent.trainStep, batch ${c.batchSize}, ~${meanCandidates.toFixed(0)} candidates each: ` +
      `${trainStepUs.toFixed(0)} us (${trainUsPerCrawlStep.toFixed(0)} us per crawl step at trainEvery ${c.trainEvery})`,
  );

  const { log: _log, ...recorded } = o;
  const result: RlBenchResult = {
    env: benchEnv(),
    options: recorded,
    config: { ...c, hiddenSizes: [...c.hiddenSizes] },
    parameterCount: net.parameterCount,
    predict,
    mlpTrainBatchUs,
    trainStepUs,
    meanCandidates,
    trainUsPerCrawlStep,
  };
  if (o.resultsDir !== false) {
    const md = [
      '# RL micro-benchmark',
      '',
      `${result.env.date}, commit ${result.env.commit}, ${result.env.cpu} (${result.env.cores} cores), node ${result.env.node}.`,
      `MLP [${net.layerSizes.join(', ')}] (${net.parameterCount} parameters); median of ${o.rounds} rounds.`,
      '',
      '| what | time |',
      '|---|---|',
      ...predict.map((p) => `| Q evaluation, batch ${p.batch} | ${p.usPerVector.toFixed(3)} us/vector |`),
      `| Mlp.trainBatch, batch ${c.batchSize} | ${mlpTrainBatchUs.toFixed(1)} us |`,
      `| DdqnAgent.trainStep, batch ${c.batchSize}, ~${meanCandidates.toFixed(0)} candidates | ${trainStepUs.toFixed(0)} us |`,
      `| training per crawl step (trainEvery ${c.trainEvery}) | ${trainUsPerCrawlStep.toFixed(0)} us |`,
      '',
    ].join('\n');
    const paths = writeResults(o.resultsDir, 'rl-bench', result, md);
    log(`  wrote ${paths.json} and ${paths.md}`);
  }
  return result;
}
