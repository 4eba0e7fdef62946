export { ChunkedArray, type ChunkedArrayType } from './chunked-array.js';
export * from './clock.js';
export { compiledWorkerPath } from './compiled-worker.js';
export * from './error-codes.js';
export * from './errors.js';
export * from './rng.js';
