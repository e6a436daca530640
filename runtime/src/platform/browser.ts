// Browser wiring: on `pagehide`, or `visibilitychange` to hidden, queued reports (already sealed
// and signed) go out with `fetch` keepalive, within the 64 KiB keepalive budget.
import type { Platform } from '../core/types.ts';
import { BROWSER_OPTION_DEFAULTS } from '../generated/options.gen.ts';
import { captureLocation } from '../location/browser.ts';

export const browserPlatform: Platform = {
  captureLocation,
  // Titles and descriptions of non-string values: a lazy chunk (stack frames, source maps).
  loadDescribe: () => import('../location/browser-describe.ts'),
  optionDefaults: BROWSER_OPTION_DEFAULTS,
  attach(hooks) {
    try {
      if (typeof addEventListener === 'function' && typeof document !== 'undefined') {
        addEventListener('pagehide', () => hooks.unload());
        document.addEventListener('visibilitychange', () => {
          if (document.visibilityState === 'hidden') hooks.unload();
        });
      }
    } catch {
      // not a window (worker, SSR): nothing to hook
    }
    return () => undefined;
  },
};
