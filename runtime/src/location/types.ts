// Shared between the core client and the location capture (issue: location capture and source maps).

/** The options of contract section 8.5 that govern location capture. */
export interface LocationOptions {
  /** Attach `file_name` (and `line_number` when `lineNumbers`). */
  captureLocation: boolean;
  /** Also send `line_number`. */
  lineNumbers: boolean;
  /** Resolve through source maps (Node: on-disk maps; browser: fetched at report time). */
  sourceMaps: boolean;
}

/** Wire fields of contract section 2.1 that locate the card in the source. */
export interface Location {
  file_name?: string;
  line_number?: number;
}

/**
 * Called synchronously inside the reporting call with the raw `description` argument. Must be cheap
 * and must never throw. Returns the location, a promise of it (resolved later, never rejecting), or
 * `undefined` when there is nothing to report.
 */
export type CaptureLocation = (
  description: unknown,
  options: LocationOptions,
) => Location | Promise<Location> | undefined;
