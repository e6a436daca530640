// Browser wiring: on `pagehide`, or `visibilitychange` to hidden, queued reports (already sealed
// and signed) go out with `fetch` keepalive, within the 64 KiB keepalive budget. Reports the service
// could not be reached for go to the offline queue (./offline.ts, a lazy chunk with the transport),
// loaded a moment after start-up while the page is online: it sends what earlier pages kept, and it
// is at hand when the network goes (a chunk cannot be fetched then).
import { lazy } from '../core/lazy.ts';
import type { Platform } from '../core/port.ts';
import { BROWSER_OPTION_DEFAULTS } from '../generated/options.gen.ts';
import { captureLocation } from '../location/browser.ts';

/** When the offline queue loads, after the client is created (ms): after the page's own start-up. */
const OFFLINE_QUEUE_DELAY_MS = 1000;

export const browserPlatform: Platform = {
  captureLocation,
  // Titles and descriptions of non-string values: a lazy chunk (stack frames, source maps).
  loadDescribe: () => import('../location/browser-describe.ts'),
  optionDefaults: BROWSER_OPTION_DEFAULTS,
  attach(hooks) {
    const ctx = hooks.pipeline.context;
    ctx.offline = lazy(() =>
      import('./offline.ts').then((chunk) => chunk.offlineQueue(hooks.pipeline)),
    );
    try {
      // Outside a window (a worker, SSR) one of these names is missing and nothing is hooked.
      document.addEventListener('visibilitychange', () => {
        if (document.visibilityState === 'hidden') hooks.unload();
      });
      addEventListener('pagehide', hooks.unload);
      setTimeout(ctx.offline, OFFLINE_QUEUE_DELAY_MS);
    } catch {
      // not a window: nothing to hook
    }
    return undefined; // nothing to know about busy and idle
  },
};
