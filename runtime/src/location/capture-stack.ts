// The reporting call's own stack, captured only when a call site is needed.

/** Frames captured for a call site: enough to climb out of the SDK and an integration. */
const CALL_SITE_FRAMES = 30;

/**
 * An Error holding the current stack, with a deeper `Error.stackTraceLimit` for this one capture.
 * Cheap: engines format `.stack` lazily, so callers read it later, off the reporting call.
 * Never throws.
 */
export function captureError(): { stack?: string } | undefined {
  const E = Error as { stackTraceLimit?: number };
  const previous = E.stackTraceLimit;
  try {
    if (typeof previous === 'number' && previous < CALL_SITE_FRAMES) {
      E.stackTraceLimit = CALL_SITE_FRAMES;
    }
    return new Error();
  } catch {
    return undefined;
  } finally {
    try {
      if (E.stackTraceLimit !== previous) E.stackTraceLimit = previous;
    } catch {
      // a frozen Error constructor keeps its limit
    }
  }
}
