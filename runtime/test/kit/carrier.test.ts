// The one global carrier (src/core/shared.ts): the shared client and every integration's state.
import { describe, expect, it } from 'vitest';
import { carrier, carrierSlot } from '../../src/core/shared.ts';

describe('carrier', () => {
  it('is one object under Symbol.for("svc.carrier"), whoever asks', () => {
    const made = carrier();
    const global = globalThis as unknown as Record<symbol, unknown>;
    expect(global[Symbol.for('svc.carrier')]).toBe(made);
    expect(carrier()).toBe(made);
  });

  it('creates a slot once, then returns the same value', () => {
    let made = 0;
    const first = carrierSlot('test-slot', () => ({ made: ++made }));
    const second = carrierSlot('test-slot', () => ({ made: ++made }));
    expect(second).toBe(first);
    expect(made).toBe(1);
    delete carrier()['test-slot'];
  });
});
