// The fake client's assertion helpers. A failed assertion throws an `AssertionError` (a plain Error
// subclass, so any test runner, Node or browser, reports it) whose message lists what was reported.
import type { Priority, Severity } from '../generated/methods.gen.ts';
import type { FakeReport } from './report.ts';

/** An exact title, a pattern for the title, or a predicate on the report. */
export type ReportMatch = string | RegExp | ((report: FakeReport) => boolean);

/** Narrows a match to one severity and/or priority. */
export interface ReportFilter {
  severity?: Severity;
  priority?: Priority;
}

export interface Assertions {
  /** The reports matching `match` (every report without it) and `filter`. */
  reported(match?: ReportMatch, filter?: ReportFilter): FakeReport[];
  /** Throws unless a matching report was made (exactly `times` of them, when given). */
  assertReported(match?: ReportMatch, expected?: ReportFilter & { times?: number }): void;
  /** Throws if a matching report was made. */
  assertNotReported(match: ReportMatch, filter?: ReportFilter): void;
  /** Throws if anything was reported. */
  assertNothingReported(): void;
  /** Throws unless exactly `count` reports were made. */
  assertReportedCount(count: number): void;
  /**
   * Throws unless `flush()` ran after the last report (and exactly `times` times, when given):
   * what an integration does at the end of a request or job.
   */
  assertFlushed(times?: number): void;
}

/** The error a failed assertion throws. */
export class AssertionError extends Error {
  override name = 'AssertionError';
}

const matches = (report: FakeReport, match?: ReportMatch, filter: ReportFilter = {}) =>
  (!filter.severity || report.severity === filter.severity) &&
  (!filter.priority || report.priority === filter.priority) &&
  (match === undefined ||
    (typeof match === 'string'
      ? report.title === match
      : match instanceof RegExp
        ? match.test(report.title)
        : match(report)));

function what(match?: ReportMatch, filter: ReportFilter = {}): string {
  const parts = [
    typeof match === 'string'
      ? `titled "${match}"`
      : match instanceof RegExp
        ? `titled ${match}`
        : '',
    typeof match === 'function' ? 'matching the predicate' : '',
    filter.severity ? `of severity ${filter.severity}` : '',
    filter.priority ? `of priority ${filter.priority}` : '',
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : '(any)';
}

export function assertions(
  reports: () => readonly FakeReport[],
  flushes: () => { flushes: number; pending: number },
): Assertions {
  const summary = () =>
    reports().length
      ? `reported: ${reports()
          .map((r) => `${r.severity}/${r.priority} "${r.title}"`)
          .join(', ')}`
      : 'nothing was reported';
  const check = (ok: boolean, message: () => string) => {
    if (!ok) throw new AssertionError(message());
  };
  const reported = (match?: ReportMatch, filter?: ReportFilter) =>
    reports().filter((r) => matches(r, match, filter));
  return {
    reported,
    assertReported(match, expected = {}) {
      const count = reported(match, expected).length;
      const { times } = expected;
      check(times === undefined ? count > 0 : count === times, () =>
        times === undefined
          ? `Expected a report ${what(match, expected)}; ${summary()}`
          : `Expected ${times} report(s) ${what(match, expected)}, got ${count}; ${summary()}`,
      );
    },
    assertNotReported(match, filter) {
      const count = reported(match, filter).length;
      check(count === 0, () => `Expected no report ${what(match, filter)}, got ${count}`);
    },
    assertNothingReported() {
      check(reports().length === 0, () => `Expected no report; ${summary()}`);
    },
    assertReportedCount(count) {
      check(reports().length === count, () => `Expected ${count} report(s); ${summary()}`);
    },
    assertFlushed(times) {
      const state = flushes();
      check(
        state.flushes > 0 &&
          state.pending === 0 &&
          (times === undefined || state.flushes === times),
        () =>
          `Expected flush() to run${times === undefined ? '' : ` ${times} time(s)`} after the last report; it ran ${state.flushes} time(s)${state.pending ? ` and ${state.pending} report(s) wait for the next one` : ''}`,
      );
    },
  };
}
