import { beforeEach, describe, expect, it } from 'vitest';
import { clientState } from '../../src/client/report.ts';
import { installWindowHandlers } from '../../src/client/window.ts';

// Node's EventTarget stands in for `window` (no browser here); the real window is covered by the
// Chromium end-to-end test.
function fire(target: EventTarget, type: string, fields: Record<string, unknown>): void {
  const event = new Event(type);
  Object.assign(event, fields);
  target.dispatchEvent(event);
}

beforeEach(() => {
  clientState().windowHandlers = false;
});

describe('installWindowHandlers', () => {
  it('reports uncaught errors and unhandled rejections', () => {
    const target = new EventTarget();
    const seen: [unknown, string][] = [];
    expect(installWindowHandlers(target, (e, s) => seen.push([e, s]))).toBe(true);
    const error = new Error('click failed');
    fire(target, 'error', { error });
    fire(target, 'unhandledrejection', { reason: 'nope' });
    expect(seen).toEqual([
      [error, 'window'],
      ['nope', 'unhandledrejection'],
    ]);
  });

  it('skips cross-origin "Script error." events without an error object', () => {
    const target = new EventTarget();
    const seen: unknown[] = [];
    installWindowHandlers(target, (e) => seen.push(e));
    fire(target, 'error', { error: null, message: 'Script error.' });
    expect(seen).toEqual([]);
  });

  it('installs once per page', () => {
    const target = new EventTarget();
    const seen: unknown[] = [];
    installWindowHandlers(target, (e) => seen.push(e));
    expect(installWindowHandlers(target, (e) => seen.push(e))).toBe(false);
    fire(target, 'error', { error: new Error('x') });
    expect(seen).toHaveLength(1);
  });

  it('does nothing without a window', () => {
    expect(installWindowHandlers(undefined)).toBe(false);
  });
});
