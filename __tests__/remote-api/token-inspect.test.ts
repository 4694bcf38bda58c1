/**
 * Inspecting or serialising a RemoteApiRefStore — util.inspect to any depth (hidden properties too),
 * JSON.stringify — never shows its token: the resolved config keeps it behind a non-enumerable getter,
 * and the client and modules share that config. (A debug print or an error reporter that serialises
 * the store must not leak it.)
 */
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { emulator, freshRepo, store, TOKEN } from './helpers.js';

let em: EmulatorHandle;
beforeAll(async () => {
  em = await emulator();
});
afterAll(async () => {
  await em?.stop();
});

/** JSON.stringify that writes a repeated object once (a used store's modules refer to each other). */
function stringify(value: unknown): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'object' || v === null) return v;
    if (seen.has(v)) return '[seen]';
    seen.add(v);
    return v;
  });
}

/** Every way a store is commonly printed or serialised. */
function renderings(value: unknown): string[] {
  return [
    inspect(value, { depth: Number.POSITIVE_INFINITY }),
    inspect(value, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
    stringify(value),
  ];
}

describe('RemoteApiRefStore keeps its token out of inspection', () => {
  it('util.inspect (depth ∞, hidden too) and JSON.stringify of a used store never show the token', async () => {
    const s = store(em, freshRepo(em));
    await s.put('a.json', '1');
    expect(new TextDecoder().decode((await s.get('a.json'))?.value)).toBe('1'); // the token still works
    const cfg = (s as unknown as { cfg: { token?: string; owner: string } }).cfg;
    expect(cfg.token).toBe(TOKEN); // the modules still read it
    for (const value of [s, cfg, { ...cfg }]) {
      for (const text of renderings(value)) {
        expect(text).toContain('octo'); // the rendering did reach the config
        expect(text).not.toContain(TOKEN);
      }
    }
  });
});
