// Browser `captureLocation`: a small stub that holds the reporting call's stack; the parsing and
// site choice live in a lazy chunk (./browser-locate.ts) so they stay out of the start-up bundle.
import { captureError } from './capture-stack.ts';
import type { CaptureLocation } from './types.ts';

type Locator = typeof import('./browser-locate.ts');

let locator: Locator | undefined;
let loading: Promise<Locator> | undefined;

/** The locator chunk, imported once; a failed load is retried by a later report. */
const load = (): Promise<Locator> =>
  (loading ??= import('./browser-locate.ts').then(
    (m) => (locator = m),
    (error) => {
      loading = undefined;
      throw error;
    },
  ));

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
    if (locator) return locator.locateReport(description, holder, options);
    return load()
      .then((m) => m.locateReport(description, holder, options) ?? {})
      .catch(() => ({}));
  } catch {
    return undefined;
  }
};
