// Browser `captureLocation`: a small stub that holds the reporting call's stack; the parsing and
// site choice live in a lazy chunk (./browser-locate.ts) so they stay out of the start-up bundle.
import { lazy } from '../core/lazy.ts';
import { captureError } from './capture-stack.ts';
import type { CaptureLocation } from './types.ts';

/** The locator chunk, imported once; a failed load is retried by a later report. */
const locator = lazy(() => import('./browser-locate.ts'));

/**
 * Browser location capture. The call-site stack is captured here, synchronously, in the reporting
 * call (engines format `.stack` lazily, so this is cheap); it is parsed later. Until the locator
 * chunk has loaded (the first reports of a page) the location is a promise; afterwards an Error
 * description without `sourceMaps` is located synchronously. Never throws, never rejects.
 */
export const captureLocation: CaptureLocation = (description, options) => {
  if (!options.captureLocation) return undefined;
  try {
    const holder = captureError();
    if (locator.loaded) return locator.loaded.locateReport(description, holder, options);
    return locator()
      .then((m) => m.locateReport(description, holder, options) ?? {})
      .catch(() => ({}));
  } catch {
    return undefined;
  }
};
