import { describe, expect, it } from 'vitest';
import { errorTitle } from '@svc/runtime/kit';
import { installGlobalHandlers } from '../src/global-handlers.ts';
import { recordingClient } from './helpers.ts';

// Node's EventTarget stands in for `window`; the real window is covered by the Chromium e2e test.
const event = (type: string, fields: Record<string, unknown>) =>
  Object.assign(new Event(type), fields);

describe('installGlobalHandlers', () => {
  it('reports window errors and unhandled rejections', () => {
    const target = new EventTarget();
    const client = recordingClient();
    installGlobalHandlers(client, { target });
    const err = new TypeError('x is not a function');
    target.dispatchEvent(event('error', { error: err, message: 'Uncaught TypeError' }));
    target.dispatchEvent(event('unhandledrejection', { reason: new Error('fetch failed') }));
    target.dispatchEvent(event('unhandledrejection', { reason: 'just a string' }));
    expect(client.calls).toEqual([
      {
        method: 'majorMedium',
        title: 'TypeError: x is not a function (browser)',
        description: err,
        tags: ['vite', 'browser', 'browser-error'],
      },
      expect.objectContaining({
        title: 'Error: fetch failed (unhandled rejection in the browser)',
        tags: ['vite', 'browser', 'browser-rejection'],
      }),
      expect.objectContaining({
        title: 'Error: just a string (unhandled rejection in the browser)',
      }),
    ]);
  });

  it('ignores resource errors that carry nothing, and uninstalls', () => {
    const target = new EventTarget();
    const client = recordingClient();
    const off = installGlobalHandlers(client, { target, method: 'minor' });
    target.dispatchEvent(event('error', {}));
    off();
    target.dispatchEvent(event('error', { error: new Error('after') }));
    expect(client.calls).toEqual([]);
  });

  it('never throws into the page', () => {
    const target = new EventTarget();
    const broken = new Proxy(
      {},
      {
        get() {
          throw new Error('client exploded');
        },
      },
    ) as never;
    installGlobalHandlers(broken, { target });
    expect(() => target.dispatchEvent(event('error', { error: new Error('e') }))).not.toThrow();
    expect(errorTitle({ message: 'm' }, 'browser')).toBe('Error: m (browser)');
  });
});
