import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { ensureTfBackend } from './tf-backend.js';

describe('ensureTfBackend', () => {
  it('starts WASM from the installed package and keeps the chosen backend for later callers', async () => {
    const info = await ensureTfBackend('wasm');
    expect(info.name).toBe('wasm');
    expect(info.fallbackReason).toBeUndefined();
    const cpu = await ensureTfBackend('cpu');
    expect(cpu.name).toBe('cpu');
    // A model asking for no particular backend gets the one chosen before.
    expect((await ensureTfBackend()).name).toBe('cpu');
    expect(tf.getBackend()).toBe('cpu');
    await ensureTfBackend('wasm');
    expect(tf.getBackend()).toBe('wasm');
  });
});
