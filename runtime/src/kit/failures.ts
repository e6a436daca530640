// One report per kind of failure, the same in every integration: the reporting method, the card
// title's place and the tags come from the spec's failure table (`x-svc-integrations`, generated
// `FAILURES`); this file only fills its templates. An integration says what failed and where:
// `failureReport('server-error', 'express', error, { method: 'GET', route: '/orders/:id' })`.
import type { ReportingMethodName } from '../generated/methods.gen.ts';
import {
  FAILURES,
  type FailureKindName,
  type FrameworkName,
} from '../generated/integrations.gen.ts';
import { errorTitle } from './title.ts';

/** The failure kinds that make a card (the others, such as a framework's 4xx, make none). */
export type ReportedKind = {
  [K in FailureKindName]: (typeof FAILURES)[K] extends { report: true } ? K : never;
}[FailureKindName];

/** Where a failure happened, for the place and tag templates. */
export interface FailureWhere {
  /** HTTP method of the request (`GET`). */
  method?: string;
  /** The framework's route pattern (`/orders/:id`, `/blog/[slug]`), never the concrete URL. */
  route?: string;
  /** Component library of an error boundary (`React`, `Vue`, `Svelte`). */
  ui?: string;
  /**
   * Work that ran after the response or outside any request (`waitUntil of POST /orders/:id`,
   * `Counter alarm`).
   */
  task?: string;
}

/** What an integration sends: `client[method](title, error, tags)`. */
export interface FailureReport {
  method: ReportingMethodName;
  title: string;
  tags: string[];
}

/** A template with its `{name}` placeholders filled (missing values leave nothing), spaces collapsed. */
function fill(template: string, values: Record<string, string | undefined>): string {
  return template
    .replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Whether failures of `kind` make a card. */
export function isReported(kind: FailureKindName): kind is ReportedKind {
  return FAILURES[kind].report;
}

/** The place in the title of a `kind` failure: `GET /orders/:id`, `browser`, `React component`. */
export function failurePlace(kind: ReportedKind, where: FailureWhere = {}): string {
  return fill(FAILURES[kind].place, { ...where, method: where.method?.toUpperCase() });
}

/**
 * The method, title and tags every integration uses for a `kind` failure of `error` in
 * `framework`: `failureReport('server-error', 'express', error, { method: 'GET', route:
 * '/orders/:id' })` gives `majorMedium`, `Error: Order <n> missing (GET /orders/:id)` and
 * `express`, `server`, `server-error`, `method:GET`. A tag whose value is unknown is left out.
 */
export function failureReport(
  kind: ReportedKind,
  framework: FrameworkName,
  error: unknown,
  where: FailureWhere = {},
): FailureReport {
  const failure = FAILURES[kind];
  const values = { framework, ...where, method: where.method?.toUpperCase() };
  const tags = failure.tags.map((tag) => fill(tag, values)).filter((tag) => !/(^|:)$/.test(tag));
  return { method: failure.method, title: errorTitle(error, failurePlace(kind, where)), tags };
}
