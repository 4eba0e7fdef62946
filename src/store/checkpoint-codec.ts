/**
 * The bytes of a strategy checkpoint (`Strategy.checkpoint`) in crawl.sqlite: raw-deflated JSON
 * in which typed arrays are references into a binary section that keeps their exact bytes
 * (little-endian, as on every platform Node runs on) and non-finite numbers keep their value.
 * Weights, Adam moments and replay vectors come back bit for bit.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { ChunkedArray, TresError } from '../common/index.js';

/** First byte of a checkpoint: the format, so that another can be added later. */
const FORMAT_JSON_AND_ARRAYS = 2;
/**
 * zlib level of the JSON part. A `coverage` crawl writes its vocabulary there every 500 pages:
 * at 20,000 pages of the engine benchmark, 344 KB of JSON took 8.4 ms at the default level 6 and
 * 2.2 ms at level 1 for 16% more bytes (105 against 90 KB), and the checkpoints were 1.6% of the
 * crawl's CPU time.
 */
const HEAD_DEFLATE_LEVEL = 1;

const TYPED = {
  f32: Float32Array,
  f64: Float64Array,
  i32: Int32Array,
  u32: Uint32Array,
  u8: Uint8Array,
  i8: Int8Array,
  u16: Uint16Array,
  i16: Int16Array,
} as const;
type TypedName = keyof typeof TYPED;

function typedName(value: ArrayBufferView): TypedName | undefined {
  for (const [name, Ctor] of Object.entries(TYPED)) if (value instanceof Ctor) return name as TypedName;
  return undefined;
}

/** Options of {@link encodeCheckpointParts}. */
export interface CheckpointEncoding {
  /**
   * Arrays of at least this many strings (none holding a NUL) are kept as one run of UTF-8 bytes
   * in the binary section, NUL-separated, not as JSON strings: a frontier snapshot's million URLs
   * stringify, deflate and parse in a fraction of the time. false: every string in the JSON.
   * @default false
   */
  packedStringsFrom?: number | false;
}

/**
 * Encodes a checkpoint value (plain objects, arrays, numbers, strings, booleans, null, typed
 * arrays, {@link ChunkedArray}s, read back as typed arrays): the format byte, the length of the deflated JSON (uint32 LE), the deflated JSON, then
 * every typed array's bytes, 8-byte aligned, where the JSON points at them. Weights and replay
 * vectors are not compressed (float bits hardly shrink; deflating 8 MB of them took seconds on a
 * loaded machine) and not base64-encoded.
 */
export function encodeCheckpoint(value: unknown, encoding: CheckpointEncoding = {}): Buffer {
  return Buffer.concat([...encodeCheckpointParts(value, encoding)]);
}

/** Strings a packed run is made into bytes at a time (see {@link encodeCheckpointParts}). */
const PACK_CHUNK_STRINGS = 8192;

/**
 * {@link encodeCheckpoint} as the buffers it is the concatenation of, for a writer that writes
 * them one after the other: a large value is never copied into one buffer, and a packed string
 * array or a {@link ChunkedArray} is made into bytes a chunk at a time as it is written (a
 * string array's length counted first), not all at once beside the value.
 */
export function encodeCheckpointParts(value: unknown, encoding: CheckpointEncoding = {}): Iterable<Buffer> {
  const arrays: Array<Buffer | string[] | ChunkedArray> = [];
  let offset = 0;
  const packedFrom = encoding.packedStringsFrom ?? false;
  const append = (part: Buffer | string[] | ChunkedArray, byteLength: number): number => {
    const at = offset;
    const padded = Math.ceil(byteLength / 8) * 8;
    arrays.push(part, Buffer.alloc(padded - byteLength));
    offset += padded;
    return at;
  };
  const json = JSON.stringify(value, function (this: unknown, key: string, v: unknown) {
    // JSON.stringify has already turned a Buffer into {type, data}; read the holder's own value.
    const raw = (this as Record<string, unknown>)[key];
    if (packedFrom !== false && Array.isArray(raw) && raw.length >= packedFrom && isPackable(raw)) {
      let bytes = Math.max(0, raw.length - 1); // the NULs between them
      for (const s of raw) bytes += Buffer.byteLength(s, 'utf8');
      return { $strings: raw.length, at: append(raw, bytes), bytes };
    }
    if (raw instanceof ChunkedArray)
      return { $typed: raw.type, at: append(raw, raw.byteLength), bytes: raw.byteLength };
    if (ArrayBuffer.isView(raw)) {
      const name = typedName(raw);
      if (name === undefined)
        throw new TypeError(`checkpoint: ${key} is a ${raw.constructor.name}, not a typed array`);
      const bytes = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
      return { $typed: name, at: append(bytes, bytes.byteLength), bytes: bytes.byteLength };
    }
    if (typeof v === 'number' && !Number.isFinite(v)) return { $number: String(v) };
    return v;
  });
  const head = deflateRawSync(Buffer.from(json ?? 'null', 'utf8'), { level: HEAD_DEFLATE_LEVEL });
  const prefix = Buffer.alloc(8);
  prefix[0] = FORMAT_JSON_AND_ARRAYS;
  prefix.writeUInt32LE(head.byteLength, 4);
  // The arrays start 8-byte aligned after the JSON.
  const gap = Buffer.alloc((8 - (head.byteLength % 8)) % 8);
  return (function* () {
    yield prefix;
    yield head;
    yield gap;
    for (const part of arrays) {
      if (Buffer.isBuffer(part)) yield part;
      else if (part instanceof ChunkedArray) {
        let bytes = 0;
        for (const chunk of part.chunks()) {
          bytes += chunk.byteLength;
          if (bytes > part.byteLength) break;
          yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        }
        // The JSON says where every later array starts: a producer that gave another length
        // would make them unreadable.
        if (bytes !== part.byteLength)
          throw new TypeError(`checkpoint: a chunked array gave ${bytes} bytes, not ${part.byteLength}`);
      } else
        for (let i = 0; i < part.length; i += PACK_CHUNK_STRINGS) {
          const end = Math.min(part.length, i + PACK_CHUNK_STRINGS);
          yield Buffer.from(`${part.slice(i, end).join('\0')}${end < part.length ? '\0' : ''}`, 'utf8');
        }
    }
  })();
}

/** True if every element is a string without a NUL (the separator of a packed run). */
function isPackable(values: unknown[]): values is string[] {
  for (const v of values) if (typeof v !== 'string' || v.includes('\0')) return false;
  return true;
}

/**
 * Decodes bytes written by {@link encodeCheckpoint}; with `isViewed`, typed arrays are views of
 * `bytes` where aligned (a large value read from a file is not copied a second time).
 * @throws TresError `TRES_STORE_CORRUPT` if the bytes are not a checkpoint.
 */
export function decodeCheckpoint(bytes: Uint8Array, decoding: { isViewed?: boolean } = {}): unknown {
  try {
    if (bytes[0] !== FORMAT_JSON_AND_ARRAYS) throw new Error(`unknown checkpoint format ${bytes[0]}`);
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const headLength = buffer.readUInt32LE(4);
    const json = inflateRawSync(buffer.subarray(8, 8 + headLength)).toString('utf8');
    const arraysStart = 8 + Math.ceil(headLength / 8) * 8;
    return JSON.parse(json, (_key, v: unknown) => {
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
        const o = v as {
          $typed?: TypedName;
          $strings?: number;
          at?: number;
          bytes?: number;
          $number?: string;
        };
        if (o.$strings !== undefined && o.at !== undefined && o.bytes !== undefined) {
          const from = arraysStart + o.at;
          if (from + o.bytes > buffer.byteLength) throw new Error('checkpoint strings past the end');
          const strings = o.$strings === 0 ? [] : buffer.toString('utf8', from, from + o.bytes).split('\0');
          if (strings.length !== o.$strings) throw new Error('checkpoint strings of the wrong count');
          return strings;
        }
        if (o.$typed !== undefined && o.at !== undefined && o.bytes !== undefined) {
          const Ctor = TYPED[o.$typed];
          const from = arraysStart + o.at;
          if (from + o.bytes > buffer.byteLength) throw new Error('checkpoint array past the end');
          // A view of `bytes` when asked and aligned for the element size (it keeps them alive);
          // else copied into a buffer of its own, independent of the row.
          const start = buffer.byteOffset + from;
          if (decoding.isViewed === true && start % Ctor.BYTES_PER_ELEMENT === 0)
            return new Ctor(buffer.buffer as ArrayBuffer, start, o.bytes / Ctor.BYTES_PER_ELEMENT);
          const copy = new Uint8Array(o.bytes);
          copy.set(buffer.subarray(from, from + o.bytes));
          return new Ctor(copy.buffer, 0, o.bytes / Ctor.BYTES_PER_ELEMENT);
        }
        if (o.$number !== undefined) return Number(o.$number);
      }
      return v;
    });
  } catch (cause) {
    throw new TresError('TRES_STORE_CORRUPT', 'Cannot decode the strategy checkpoint in crawl.sqlite', {
      cause,
    });
  }
}
