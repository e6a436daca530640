// What the fake client records of one report; the fake (./fake.ts) writes it, the assertions
// (./assertions.ts) read it.
import type { Priority, ReportingMethodName, Severity } from '../generated/methods.gen.ts';
import type { WirePayload } from '../core/types.ts';

/** One report the fake recorded. */
export interface FakeReport {
  /** The reporting method called (`majorHigh`). */
  method: ReportingMethodName;
  severity: Severity;
  priority: Priority;
  title: string;
  description: string | undefined;
  tags: string[];
  /** The payload the real client would send (after `beforeSend`), without `file_name`/`line_number`. */
  payload: WirePayload;
  /** The `description` argument as given, when it was not a string (an Error, an object). */
  error: unknown;
}
