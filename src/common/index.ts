export * from './clock.js';
export * from './errors.js';
export * from './rng.js';
