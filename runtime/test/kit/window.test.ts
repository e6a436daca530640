// The window listeners every browser integration installs (src/kit/window.ts), on a real
// EventTarget with the events browsers dispatch.
import { describe, expect, it } from 'vitest';
import { listenWindowErrors } from '../../src/kit/window.ts';

const errorEvent = (error: unknown) => Object.assign(new Event('error'), { error });
const rejection = (reason: unknown) => Object.assign(new Event('unhandledrejection'), { reason });

describe('listenWindowErrors', () => {
  it('reports errors and rejections by kind, skips events without an error, and uninstalls', () => {
    const target = new EventTarget();
    const seen: [unknown, string][] = [];
    const stop = listenWindowErrors(target, (error, kind) => seen.push([error, kind]));
    const boom = new Error('boom');
    target.dispatchEvent(errorEvent(boom));
    target.dispatchEvent(errorEvent(null)); // a resource load error
    target.dispatchEvent(rejection('nope'));
    stop();
    target.dispatchEvent(errorEvent(boom));
    expect(seen).toEqual([
      [boom, 'browser-error'],
      ['nope', 'browser-rejection'],
    ]);
  });

  it('never throws into the page', () => {
    const target = new EventTarget();
    listenWindowErrors(target, () => {
      throw new Error('reporter broke');
    });
    expect(() => target.dispatchEvent(errorEvent(new Error('x')))).not.toThrow();
  });
});
