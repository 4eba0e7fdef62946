/**
 * Registry entries of the TRES family: its settings by field name (the Double DQN's, the
 * Tree-Frontier's and TRES's own), and the factories. The defaults are those of
 * `DEFAULT_DDQN_CONFIG`, `DEFAULT_TREE_FRONTIER_OPTIONS` and `resolveTresConfig`.
 */
import {
  booleanSetting,
  numberOrOffSetting,
  numberSetting,
  type SettingAlias,
  type SettingsOf,
  wordSetting,
} from '../../config/index.js';
import { KeywordSet } from '../../text/index.js';
import { defineStrategy, type StrategyContext } from '../strategy-entry.js';
import { DEFAULT_DDQN_CONFIG as DDQN, type DdqnConfig } from './ddqn-config.js';
import { DEFAULT_TREE_FRONTIER_OPTIONS as TREE } from './tree-frontier.js';
import { TresAsyncStrategy } from './tres-async-strategy.js';
import type { TresOverrides } from './tres-config.js';
import { TresStrategy, type TresTreeVariant } from './tres-strategy.js';

/** The agent's settings, for every learning member (tres-async too). */
const AGENT_SETTINGS = {
  newDomainBonus: numberSetting(0, 'intrinsic reward added for a relevant page on a new domain', { min: 0 }),
  isLearning: booleanSetting(DDQN.isLearning, 'false: the Q-network keeps its initial weights'),
  isDoubleQ: booleanSetting(DDQN.isDoubleQ, 'false: DQN (the target network also picks the next action)'),
  maxNextCandidates: numberOrOffSetting(DDQN.maxNextCandidates, 'stored next actions per transition', {
    min: 1,
    isInteger: true,
  }),
};

/** Double DQN settings. */
const DDQN_SETTINGS = {
  gamma: numberSetting(DDQN.gamma, 'discount factor', { min: 0, max: 1, isMaxOpen: true }),
  learningRate: numberSetting(DDQN.learningRate, 'Adam step size', { min: 0, isMinOpen: true }),
  batchSize: numberSetting(DDQN.batchSize, 'transitions per training step', { min: 1, isInteger: true }),
  trainEvery: numberSetting(DDQN.trainEvery, 'train on every n-th step after the warm-up', {
    min: 1,
    isInteger: true,
  }),
  warmupSteps: numberSetting(DDQN.warmupSteps, 'steps before the agent chooses and trains', {
    min: 0,
    isInteger: true,
  }),
  targetUpdateEvery: numberSetting(DDQN.targetUpdateEvery, 'steps between target-network copies', {
    min: 1,
    isInteger: true,
  }),
  replayCapacity: numberSetting(DDQN.replayCapacity, 'replay buffer size in transitions', {
    min: 1,
    isInteger: true,
  }),
};

/** Tree-Frontier settings. */
const TREE_SETTINGS = {
  maxDepth: numberSetting(TREE.maxDepth, 'a leaf at this depth never splits', { min: 0, isInteger: true }),
  minSamplesToSplit: numberSetting(TREE.minSamplesToSplit, 'experiences a leaf needs to try a split', {
    min: 1,
    isInteger: true,
  }),
  minSideFraction: numberSetting(TREE.minSideFraction, 'fraction each side of a split needs (0: off)', {
    min: 0,
    max: 0.5,
  }),
  minSamplesPerSide: numberSetting(TREE.minSamplesPerSide, 'experiences each side of a split needs', {
    min: 1,
    isInteger: true,
  }),
  maxDrawRounds: numberSetting(TREE.maxDrawRounds, 'draw rounds after purging stale representatives', {
    min: 1,
    isInteger: true,
  }),
};

/** TRES's own settings (besides the agent's). */
const OWN_SETTINGS = {
  warmupPolicy: wordSetting(['prior', 'random'], 'prior', 'warm-up choice: best prior, or random (authors)'),
  epsilon: numberSetting(0, 'probability of a random candidate after the warm-up', { min: 0, max: 1 }),
  parentFeature: wordSetting(
    ['reward', 'probability'],
    'reward',
    "feature 0: parent page's reward or P(relevant)",
  ),
  limitSiteBonus: numberSetting(0, 'new-site bonus only while a domain limit is set', { min: 0 }),
};

const TRES_SETTINGS = { ...DDQN_SETTINGS, ...TREE_SETTINGS, ...OWN_SETTINGS, ...AGENT_SETTINGS };
const SYNCHRONOUS_SETTINGS = { ...DDQN_SETTINGS, ...OWN_SETTINGS, ...AGENT_SETTINGS };
const ASYNC_SETTINGS = { ...DDQN_SETTINGS, ...AGENT_SETTINGS };

/** The spec keys of results/ commands before the keys were the field names. */
const AGENT_ALIASES: Record<string, SettingAlias> = {
  learn: { to: 'isLearning', values: { 0: false, 1: true } },
  doubleQ: { to: 'isDoubleQ', values: { 0: false, 1: true } },
};
const TRES_ALIASES: Record<string, SettingAlias> = {
  ...AGENT_ALIASES,
  warmupPrior: { to: 'warmupPolicy', values: { 0: 'random', 1: 'prior' } },
  parentProbability: { to: 'parentFeature', values: { 0: 'reward', 1: 'probability' } },
};

type TresSettings = Partial<SettingsOf<typeof TRES_SETTINGS>>;

/** Sorts a spec's settings into the DDQN part, the tree part and TRES's own. */
function tresOverrides(s: TresSettings): TresOverrides {
  const ddqn: Partial<DdqnConfig> = {};
  const tree: TresOverrides['tree'] = {};
  const out: TresOverrides = { ddqn, tree };
  for (const [key, value] of Object.entries(s)) {
    if (value === undefined) continue;
    if (key in TREE_SETTINGS) (tree as Record<string, unknown>)[key] = value;
    else if (key in OWN_SETTINGS || key === 'newDomainBonus') (out as Record<string, unknown>)[key] = value;
    else (ddqn as Record<string, unknown>)[key] = value;
  }
  return out;
}

function tres(variant: TresTreeVariant) {
  return (ctx: StrategyContext, settings: TresSettings) =>
    new TresStrategy({
      variant,
      rng: ctx.rng,
      keywords: ctx.keywords ?? new KeywordSet([]),
      ...tresOverrides(settings),
      ...(ctx.name ? { name: ctx.name } : {}),
    });
}

export const TRES_ENTRIES = [
  defineStrategy({
    name: 'tres',
    description: 'TRES: Double DQN choosing among one representative per Tree-Frontier leaf',
    settings: TRES_SETTINGS,
    aliases: TRES_ALIASES,
    create: tres('tres'),
  }),
  defineStrategy({
    name: 'tres-nh',
    description: 'TRES without the two hub (domain) features',
    settings: TRES_SETTINGS,
    aliases: TRES_ALIASES,
    create: tres('tres-nh'),
  }),
  defineStrategy({
    name: 'tree-random',
    description: 'the Tree-Frontier with a random leaf and a random sample (no Q-network)',
    settings: TREE_SETTINGS,
    create: tres('tree-random'),
  }),
  defineStrategy({
    name: 'synchronous',
    description: 'exact argmax of Q over the whole frontier every step (slow; for comparison)',
    settings: SYNCHRONOUS_SETTINGS,
    aliases: TRES_ALIASES,
    create: tres('synchronous'),
  }),
  defineStrategy({
    name: 'tres-async',
    description: 'TRES features and DDQN, frontier scored once on insertion (Han et al.), best-first',
    settings: ASYNC_SETTINGS,
    aliases: AGENT_ALIASES,
    create: (ctx, settings) =>
      new TresAsyncStrategy({
        rng: ctx.rng,
        keywords: ctx.keywords ?? new KeywordSet([]),
        ...tresOverrides(settings),
        ...(ctx.name ? { name: ctx.name } : {}),
      }),
  }),
];
