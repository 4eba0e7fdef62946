export * from './clock.js';
export * from './error-codes.js';
export * from './errors.js';
export * from './rng.js';
