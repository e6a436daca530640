// The window listeners every browser integration installs (src/kit/window.ts), on a real
// EventTarget with the events browsers dispatch; a browser integration's start
// (initBrowserIntegration: SvelteKit's and React Router's initSvcClient, whose listeners on a real
// window the cross-framework matrix checks in Chromium).
import { afterEach, describe, expect, it } from 'vitest';
import { initBrowserIntegration, listenWindowErrors } from '../../src/kit/window.ts';
import { createFakeClient } from '../../src/testing/index.ts';

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

describe('initBrowserIntegration', () => {
  const scope = globalThis as { addEventListener?: unknown; removeEventListener?: unknown };
  const had = { add: scope.addEventListener, remove: scope.removeEventListener };
  afterEach(() => {
    scope.addEventListener = had.add;
    scope.removeEventListener = had.remove;
  });

  /** A window as the listeners see it: `globalThis` given an EventTarget's two methods. */
  function windowTarget(): EventTarget {
    const target = new EventTarget();
    scope.addEventListener = target.addEventListener.bind(target);
    scope.removeEventListener = target.removeEventListener.bind(target);
    return target;
  }

  it("makes the page's client from the build's config and settings, and reports the window's errors", () => {
    const target = windowTarget();
    const client = createFakeClient();
    const made: unknown[][] = [];
    const init = (...args: unknown[]) => {
      made.push(args);
      return client;
    };
    const config = { apiKey: 'svc_pub_x', release: '3' };
    const settings = { serviceUrl: 'http://127.0.0.1:9' };
    expect(initBrowserIntegration(init, 'sveltekit', config, settings)).toBe(client);
    expect(made).toEqual([[config, settings]]);
    target.dispatchEvent(errorEvent(new TypeError('Cart 7 is empty')));
    expect(client.reports).toMatchObject([
      { method: 'majorMedium', title: 'TypeError: Cart <n> is empty (browser)' },
    ]);
  });

  it('installs no listener with windowHandlers: false, or where there is no window', () => {
    const client = createFakeClient();
    const target = windowTarget();
    initBrowserIntegration(() => client, 'react-router', {}, {}, { windowHandlers: false });
    target.dispatchEvent(errorEvent(new Error('x')));
    scope.addEventListener = undefined;
    expect(initBrowserIntegration(() => client, 'react-router', {})).toBe(client);
    expect(client.reports).toEqual([]);
  });
});
