// Shared between the core client and the location capture (contract 4, location capture).
import type { components } from '../generated/wire.gen.ts';

/** The options of contract section 8.5 that govern location capture. */
export interface LocationOptions {
  /** Attach `file_name` (and `line_number` when `lineNumbers`). */
  captureLocation: boolean;
  /** Also send `line_number`. */
  lineNumbers: boolean;
  /** Resolve through source maps (Node: on-disk maps; browser: fetched at report time). */
  sourceMaps: boolean;
  /**
   * The build's maps were uploaded to the service (the deployment setting of the same name): a
   * frame no map resolves here keeps its chunk's path as it is (no `[hash]`), for the service to
   * map; the browser fetches no map.
   */
  uploadedSourceMaps?: boolean;
}

type TaskReport = components['schemas']['TaskReport'];

/** The wire fields of contract section 2.1 that locate the card in the source (the generated `TaskReport`'s, when known). */
export type Location = {
  [field in 'file_name' | 'line_number']?: NonNullable<TaskReport[field]>;
};

/**
 * Called synchronously inside the reporting call with the raw `description` argument. Must be cheap
 * and must never throw. Returns the location, a promise or thenable of it (resolved later, never
 * rejecting; the report's build awaits it), or `undefined` when there is nothing to report.
 */
export type CaptureLocation = (
  description: unknown,
  options: LocationOptions,
) => Location | PromiseLike<Location> | undefined;
