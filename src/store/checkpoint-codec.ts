/**
 * The bytes of a strategy checkpoint (`Strategy.checkpoint`) in crawl.sqlite: JSON in which typed
 * arrays keep their exact bytes (base64 of the array's memory, little-endian as every platform
 * Node runs on) and non-finite numbers their value, raw-deflated. Weights, Adam moments and
 * replay vectors come back bit for bit.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { TresError } from '../common/errors.js';

/** First byte of a checkpoint: the format, so that another can be added later. */
const FORMAT_DEFLATE_JSON = 1;

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

/** Encodes a checkpoint value (plain objects, arrays, numbers, strings, booleans, null, typed arrays). */
export function encodeCheckpoint(value: unknown): Buffer {
  const json = JSON.stringify(value, function (this: unknown, key: string, v: unknown) {
    // JSON.stringify has already turned a Buffer into {type, data}; read the holder's own value.
    const raw = (this as Record<string, unknown>)[key];
    if (ArrayBuffer.isView(raw)) {
      const name = typedName(raw);
      if (name === undefined)
        throw new TypeError(`checkpoint: ${key} is a ${raw.constructor.name}, not a typed array`);
      const bytes = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
      return { $typed: name, b64: bytes.toString('base64') };
    }
    if (typeof v === 'number' && !Number.isFinite(v)) return { $number: String(v) };
    return v;
  });
  return Buffer.concat([Buffer.of(FORMAT_DEFLATE_JSON), deflateRawSync(Buffer.from(json ?? 'null', 'utf8'))]);
}

/**
 * Decodes bytes written by {@link encodeCheckpoint}.
 * @throws TresError `TRES_STORE_CORRUPT` if the bytes are not a checkpoint.
 */
export function decodeCheckpoint(bytes: Uint8Array): unknown {
  try {
    if (bytes[0] !== FORMAT_DEFLATE_JSON) throw new Error(`unknown checkpoint format ${bytes[0]}`);
    const json = inflateRawSync(bytes.subarray(1)).toString('utf8');
    return JSON.parse(json, (_key, v: unknown) => {
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
        const o = v as { $typed?: TypedName; b64?: string; $number?: string };
        if (o.$typed !== undefined && o.b64 !== undefined) {
          const Ctor = TYPED[o.$typed];
          const b = Buffer.from(o.b64, 'base64');
          // Copied into a buffer of its own: aligned for the element size.
          const copy = new Uint8Array(b.byteLength);
          copy.set(b);
          return new Ctor(copy.buffer, 0, b.byteLength / Ctor.BYTES_PER_ELEMENT);
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
