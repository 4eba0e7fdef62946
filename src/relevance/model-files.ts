/**
 * A saved model is a folder with `model.json` (kind, config, keywords, vocabularies, array
 * directory) and `weights.bin` (every numeric array as little-endian Float32, in the order of the
 * directory). Floats never pass through JSON, so a loaded model scores bit for bit as before.
 * Each file is written to a temporary name and renamed; `model.json` last.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../common/index.js';
import type { ModelName } from './types.js';

const FORMAT = 'tres-relevance-model';
const VERSION = 1;

/** The JSON part of a saved model. */
export interface ModelManifest {
  format: typeof FORMAT;
  version: number;
  name: ModelName;
  /** Model-specific JSON: config, keywords, vocabulary, shapes. */
  meta: Record<string, unknown>;
  /** Names and lengths of the arrays in weights.bin, in file order. */
  arrays: { name: string; length: number }[];
}

/** Writes a model folder. */
export function writeModelFiles(
  dir: string,
  name: ModelName,
  meta: Record<string, unknown>,
  arrays: Record<string, Float32Array>,
): void {
  mkdirSync(dir, { recursive: true });
  const entries = Object.entries(arrays);
  const total = entries.reduce((s, [, a]) => s + a.length, 0);
  const bin = new Float32Array(total);
  let at = 0;
  for (const [, a] of entries) {
    bin.set(a, at);
    at += a.length;
  }
  const manifest: ModelManifest = {
    format: FORMAT,
    version: VERSION,
    name,
    meta,
    arrays: entries.map(([n, a]) => ({ name: n, length: a.length })),
  };
  const tmp = `.tmp-${process.pid}`;
  writeFileSync(join(dir, `weights.bin${tmp}`), Buffer.from(bin.buffer, bin.byteOffset, bin.byteLength));
  renameSync(join(dir, `weights.bin${tmp}`), join(dir, 'weights.bin'));
  writeFileSync(join(dir, `model.json${tmp}`), `${JSON.stringify(manifest, null, 1)}\n`);
  renameSync(join(dir, `model.json${tmp}`), join(dir, 'model.json'));
}

/**
 * Reads a model folder.
 * @throws ConfigError naming the folder if it is missing, not a tres model, or damaged
 */
export function readModelFiles(dir: string): { manifest: ModelManifest; arrays: Map<string, Float32Array> } {
  let manifest: ModelManifest;
  try {
    manifest = JSON.parse(readFileSync(join(dir, 'model.json'), 'utf8')) as ModelManifest;
  } catch (cause) {
    throw new ConfigError(`${dir} is not a saved tres model (no readable model.json)`, {
      cause,
      context: { file: dir },
    });
  }
  if (manifest.format !== FORMAT || manifest.version !== VERSION) {
    throw new ConfigError(`${dir}/model.json is not a tres relevance model of version ${VERSION}`, {
      context: { file: dir },
    });
  }
  let raw: Buffer;
  try {
    raw = readFileSync(join(dir, 'weights.bin'));
  } catch (cause) {
    throw new ConfigError(`${dir}/weights.bin is missing`, { cause, context: { file: dir } });
  }
  const total = manifest.arrays.reduce((s, a) => s + a.length, 0);
  if (raw.length !== total * 4) {
    throw new ConfigError(`${dir}/weights.bin has ${raw.length} bytes, expected ${total * 4}`, {
      context: { file: dir },
    });
  }
  const copy = new Float32Array(total);
  new Uint8Array(copy.buffer).set(raw);
  const arrays = new Map<string, Float32Array>();
  let at = 0;
  for (const a of manifest.arrays) {
    arrays.set(a.name, copy.subarray(at, at + a.length));
    at += a.length;
  }
  return { manifest, arrays };
}

/**
 * The array `name` of a loaded model.
 * @throws ConfigError if missing
 */
export function requireArray(arrays: Map<string, Float32Array>, name: string, dir: string): Float32Array {
  const a = arrays.get(name);
  if (a === undefined)
    throw new ConfigError(`${dir}: saved model lacks array ${name}`, { context: { file: dir } });
  return a;
}
