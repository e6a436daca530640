// The generator's model: plain typed data read from the spec by `inspect/*`, validated here in one
// place (method table shape, unique names, values from the spec's enums, error mapping), then
// handed to `emit/*`. Emitters trust the model and never re-validate. The client options and
// behaviour in ./model-client.ts, the method table in ./model-methods.ts, the integrations in
// ./model-integrations.ts (types and checks each); `validateModel` below runs every check.
import {
  type ClientBehaviour,
  type ClientOption,
  checkClient,
  type KeyShape,
} from './model-client.ts';
import { checkIntegrations, type Integrations } from './model-integrations.ts';
import { checkMethodTable, type MethodTable } from './model-methods.ts';

/** What an error class carries besides `status` and `retryable`. */
export const CARRIES = ['message', 'fieldErrors', 'retryAfter', 'cause'] as const;
export type Carry = (typeof CARRIES)[number];

export type StatusMatcher =
  | { kind: 'status'; status: number }
  | { kind: 'range'; min: number; max: number }
  | { kind: 'network' };

export interface ErrorRule {
  match: StatusMatcher[];
  /** JavaScript class name (`SvcAuthError`). */
  className: string;
  /** PHP class name in namespace `Svc\\Exception` (`AuthException`). */
  phpClassName: string;
  carries: Carry[];
  retried: boolean;
  description: string;
}

export interface ErrorMapping {
  base: { className: string; phpClassName: string; description: string };
  rules: ErrorRule[];
}

export interface RuntimeLimits {
  titleMax: number;
  tagMax: number;
  descriptionMax: number;
  sdkDescriptionMax: number;
  fileNameMax: number;
  lineNumberMin: number;
  lineNumberMax: number;
}

export interface ServerLimits {
  variantCap: number;
  timestampSkewSeconds: number;
  projectQuotaShare: number;
  /** `maxItems` of the tags array in `TaskReport`: the most tags one report may carry. */
  tagsPerReport: number;
  /** The most tags one card keeps. */
  tagsPerCard: number;
}

/** The service address and the path of each operation. */
export interface Service {
  url: string;
  /** `POST` a report (`createTask`). */
  tasksPath: string;
  /** `POST` a build's source map (`uploadSourceMap`). */
  sourceMapsPath: string;
  /** How alerts are signed and retried (`webhooks.alert` `x-svc-delivery`). */
  alertDelivery: AlertDelivery;
}

/** How the service delivers alerts to webhooks (`webhooks.alert` `x-svc-delivery`). */
export interface AlertDelivery {
  /** The constant path covered by a webhook's signature (contract 5.2's scheme). */
  signedPath: string;
  /** The prefix of webhook secrets. */
  secretPrefix: string;
  /** 4XX statuses retried with backoff (besides every status from `retriedFrom` and no answer). */
  retriedStatuses: number[];
  retriedFrom: number;
}

/**
 * Source-map limits: the `x-svc-sourcemaps` defaults of the reference service, and the `release`
 * and `path` lengths of `SourceMapUpload` (so an uploader checks what the service checks).
 */
export interface SourceMapLimits {
  fileBytesMax: number;
  projectBytesMax: number;
  releasesKept: number;
  segmentsMax: number;
  sourcesMax: number;
  releaseMax: number;
  pathMax: number;
}

export interface Plan {
  burstPerMinute: number;
  dailyEvents: number;
}

export type { MethodTable, ReportingMethod } from './model-methods.ts';
export { checkMethodTable } from './model-methods.ts';
export type { ClientBehaviour, ClientOption, KeyShape, OptionType, Sdk } from './model-client.ts';
export { checkClient, OPTION_TYPES, SDKS } from './model-client.ts';
export type {
  FailureKind,
  Framework,
  Integrations,
  LevelReport,
  Side,
} from './model-integrations.ts';
export { checkIntegrations, integrationsOf } from './model-integrations.ts';

export type JsonSchema = { [key: string]: unknown };

export interface Model {
  methods: MethodTable;
  errors: ErrorMapping;
  limits: RuntimeLimits;
  /** Title of a report without title or description line (`x-svc-untitled`, contract 2.1). */
  untitledTitle: string;
  serverLimits: ServerLimits;
  plans: Record<string, Plan>;
  /** Percentages of the daily quota that trigger a warning e-mail, ascending. */
  quotaWarnings: number[];
  service: Service;
  /** The reference service's default limits on uploaded source maps (`x-svc-sourcemaps`). */
  sourceMaps: SourceMapLimits;
  options: ClientOption[];
  client: ClientBehaviour;
  /** Key value shapes of contract 2.5 (`x-svc-keys`). */
  keys: KeyShape[];
  /** What every framework integration shares (`x-svc-integrations`). */
  integrations: Integrations;
  /** Self-contained JSON Schemas (refs inlined, OpenAPI-only keys removed). */
  schemas: {
    taskReport: JsonSchema;
    encryptedEnvelope: JsonSchema;
    card: JsonSchema;
    sourceMapUpload: JsonSchema;
    alertPayload: JsonSchema;
    slackAlert: JsonSchema;
  };
  /** The parsed spec document, for the wire types. */
  document: Record<string, unknown>;
}

export class ModelError extends Error {
  override name = 'ModelError';
  constructor(readonly problems: string[]) {
    super(`invalid spec model:\n  - ${problems.join('\n  - ')}`);
  }
}

/** Checks the client error mapping of contract section 7. */
export function checkErrorMapping(mapping: ErrorMapping): string[] {
  const problems: string[] = [];
  const className = /^Svc[A-Za-z]*Error$/;
  if (!className.test(mapping.base.className)) {
    problems.push(`base class "${mapping.base.className}" must match ${className}`);
  }
  if (!mapping.rules.some((r) => r.match.some((m) => m.kind === 'network'))) {
    problems.push('no error rule matches network failures');
  }
  for (const rule of mapping.rules) {
    if (!className.test(rule.className) || rule.className === mapping.base.className) {
      problems.push(`error class "${rule.className}" must be a distinct Svc*Error subclass`);
    }
    if (rule.match.length === 0) problems.push(`${rule.className}: empty match`);
    for (const m of rule.match) {
      const [lo, hi] =
        m.kind === 'status'
          ? [m.status, m.status]
          : m.kind === 'range'
            ? [m.min, m.max]
            : [400, 400];
      if (!Number.isInteger(lo) || lo < 400 || hi > 599 || lo > hi) {
        problems.push(`${rule.className}: match outside 400-599`);
      }
    }
    for (const c of rule.carries) {
      if (!(CARRIES as readonly string[]).includes(c))
        problems.push(`${rule.className}: unknown carry "${c}"`);
    }
  }
  // PHP names (contract 7, PHP column): one PHP class per JavaScript class, and back.
  const phpClass = /^[A-Z][A-Za-z]*Exception$/;
  const pairs = [mapping.base, ...mapping.rules].map((r) => [r.className, r.phpClassName]);
  for (const [js, php] of pairs) {
    if (!phpClass.test(php!)) problems.push(`${js}: PHP class "${php}" must match ${phpClass}`);
    for (const [otherJs, otherPhp] of pairs) {
      if ((js === otherJs) !== (php === otherPhp) && js! < otherJs!) {
        problems.push(`${js} and ${otherJs} need one PHP class each (got ${php}, ${otherPhp})`);
      }
    }
  }
  return problems;
}

/** Checks numeric limits and plans. */
export function checkLimits(
  model: Pick<Model, 'limits' | 'serverLimits' | 'plans' | 'quotaWarnings'>,
): string[] {
  const problems: string[] = [];
  const all = { ...model.limits, ...model.serverLimits };
  for (const [key, value] of Object.entries(all)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      problems.push(`limit ${key} must be a non-negative number, got ${String(value)}`);
    }
  }
  if (model.limits.sdkDescriptionMax > model.limits.descriptionMax) {
    problems.push('SDK description clamp exceeds the server description limit');
  }
  if (model.serverLimits.tagsPerReport > model.serverLimits.tagsPerCard) {
    problems.push('a card must keep at least the tags one report may carry');
  }
  const warnings = model.quotaWarnings;
  if (
    warnings.length === 0 ||
    warnings.some(
      (p, i) => !Number.isInteger(p) || p <= 0 || p > 100 || (i > 0 && p <= warnings[i - 1]!),
    )
  ) {
    problems.push('quota warning thresholds must be ascending integer percentages in (0, 100]');
  }
  if (Object.keys(model.plans).length === 0) problems.push('no plans');
  for (const [name, plan] of Object.entries(model.plans)) {
    if (!Number.isInteger(plan.burstPerMinute) || !Number.isInteger(plan.dailyEvents)) {
      problems.push(`plan ${name} needs integer burstPerMinute and dailyEvents`);
    }
  }
  return problems;
}

/** Checks the source-map limits: positive integers. */
export function checkSourceMapLimits(limits: SourceMapLimits): string[] {
  return Object.entries(limits)
    .filter(([, value]) => !Number.isSafeInteger(value) || value <= 0)
    .map(([key, value]) => `x-svc-sourcemaps ${key} must be a positive integer, got ${value}`);
}

/** Validates the whole model in one place; throws `ModelError` listing every problem. */
export function validateModel(model: Model): Model {
  const problems = [
    ...checkMethodTable(model.methods),
    ...checkErrorMapping(model.errors),
    ...checkLimits(model),
    ...checkClient(model),
    ...checkIntegrations(model),
    ...checkSourceMapLimits(model.sourceMaps),
  ];
  if (!/^https?:\/\/[^/]+(\/.*[^/])?$/.test(model.service.url)) {
    problems.push(`service URL "${model.service.url}" must be http(s) without a trailing slash`);
  }
  problems.push(...checkAlertDelivery(model.service.alertDelivery));
  if (problems.length > 0) throw new ModelError(problems);
  return model;
}

function checkAlertDelivery(d: AlertDelivery): string[] {
  const problems: string[] = [];
  if (!/^\/[\x21-\x7e]*$/.test(d.signedPath)) {
    problems.push(`alert signedPath "${d.signedPath}" must be a printable path starting with /`);
  }
  if (!/^[a-z][a-z0-9_]*_$/.test(d.secretPrefix)) {
    problems.push(`alert secretPrefix "${d.secretPrefix}" must be lower-case and end with _`);
  }
  const status = (n: number) => Number.isInteger(n) && n >= 400 && n <= 599;
  if (!d.retriedStatuses.every(status) || !status(d.retriedFrom)) {
    problems.push('alert retried statuses must be integers in 400-599');
  }
  return problems;
}
