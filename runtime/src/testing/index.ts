// `@svc/runtime/testing`: a fake client for your own tests (records reports, sends nothing) and its
// assertion helpers. Built apart from the client entries, like the kit.
export { AssertionError, type ReportFilter, type ReportMatch } from './assertions.ts';
export { createFakeClient, type FakeClient } from './fake.ts';
export type { FakeReport } from './report.ts';
