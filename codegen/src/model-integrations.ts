// The integrations part of the generator's model (`x-svc-integrations`): the frameworks of each
// SDK with the public prefix of their browser builds, and the failure kinds every integration of
// every SDK reports the same way (method, title place, tags; a log record's method by its level).
// `validateModel` (./model.ts) runs the checks below.
import type { MethodTable } from './model-methods.ts';
import { type Sdk, SDKS } from './model-client.ts';

/** One framework integration of one SDK; `publicPrefix` is how its browser builds name a public setting. */
export interface Framework {
  name: string;
  sdk: Sdk;
  publicPrefix?: string;
}

/** Where a failure happens. */
export const SIDES = ['server', 'browser'] as const;
export type Side = (typeof SIDES)[number];

/** The severity and priority of a log record at one PSR-3 level, and their reporting method. */
export interface LevelReport {
  level: string;
  severity: string;
  priority: string;
  /** The cell of the method table, as `FailureKind.method`. */
  method?: string;
}

/**
 * How one kind of failure is reported: every field but `kind`, `description`, `sdks` and `report`
 * is absent when `report` is false. A reported kind has one `severity` x `priority`, or (log
 * records, PHP only) one per level in `levels`.
 */
export interface FailureKind {
  kind: string;
  description: string;
  /** The SDKs whose integrations report this kind (and get it in their generated table). */
  sdks: Sdk[];
  report: boolean;
  side?: Side;
  severity?: string;
  priority?: string;
  /** The reporting method of `severity` x `priority` (its cell of the method table, not the alias). */
  method?: string;
  /** Per PSR-3 level, most severe first, instead of one severity and priority. */
  levels?: LevelReport[];
  /** Title place template (`{method} {route}`). */
  place?: string;
  /** Tag templates (`{framework}`, `method:{method}`). */
  tags?: string[];
}

export interface Integrations {
  frameworks: Framework[];
  failures: FailureKind[];
}

/** The placeholders a place or tag template may use. */
export const PLACEHOLDERS = [
  'framework',
  'method',
  'route',
  'ui',
  'command',
  'job',
  'channel',
  'task',
] as const;

/** The rows and frameworks of one SDK, in spec order. */
export function integrationsOf(integrations: Integrations, sdk: Sdk): Integrations {
  return {
    frameworks: integrations.frameworks.filter((f) => f.sdk === sdk),
    failures: integrations.failures.filter((f) => f.sdks.includes(sdk)),
  };
}

const isSdk = (value: string) => (SDKS as readonly string[]).includes(value);

const placeholders = (template: string) =>
  [...template.matchAll(/\{([^}]*)\}/g)].map((match) => match[1]!);

/** The method of a cell of the table (not the bare alias), or undefined. */
export function cellMethod(table: MethodTable, severity: string, priority: string) {
  return table.methods.find(
    (m) => !m.isDefaultAlias && m.severity === severity && m.priority === priority,
  )?.name;
}

/** Checks the frameworks and failure kinds against the method table. */
export function checkIntegrations(model: {
  integrations: Integrations;
  methods: MethodTable;
}): string[] {
  const problems: string[] = [];
  const { frameworks, failures } = model.integrations;
  const names = new Set<string>();
  for (const framework of frameworks) {
    if (!/^[a-z][a-z0-9-]*$/.test(framework.name))
      problems.push(`framework "${framework.name}" must be a lower-case name`);
    if (names.has(framework.name)) problems.push(`duplicate framework "${framework.name}"`);
    names.add(framework.name);
    if (!isSdk(framework.sdk))
      problems.push(`framework ${framework.name}: sdk must be one of ${SDKS.join(', ')}`);
    if (framework.publicPrefix !== undefined && !/^[A-Z][A-Z0-9_]*_$/.test(framework.publicPrefix))
      problems.push(`framework ${framework.name}: public prefix must be upper-case, ending in _`);
  }
  const kinds = new Set<string>();
  for (const failure of failures) {
    const label = `failure ${failure.kind}`;
    if (!/^[a-z][a-z-]*$/.test(failure.kind)) problems.push(`${label}: kind must be kebab-case`);
    if (kinds.has(failure.kind)) problems.push(`duplicate failure kind "${failure.kind}"`);
    kinds.add(failure.kind);
    if (failure.sdks.length === 0 || !failure.sdks.every(isSdk))
      problems.push(`${label}: sdks must be a non-empty subset of ${SDKS.join(', ')}`);
    if (!failure.report) continue;
    if (!(SIDES as readonly string[]).includes(failure.side ?? ''))
      problems.push(`${label}: side must be one of ${SIDES.join(', ')}`);
    problems.push(...checkMethods(failure, label));
    if (!failure.place) problems.push(`${label}: a place is required`);
    if (!failure.tags?.includes('{framework}'))
      problems.push(`${label}: the tags must name the framework ({framework})`);
    for (const template of [failure.place ?? '', ...(failure.tags ?? [])]) {
      for (const name of placeholders(template))
        if (!(PLACEHOLDERS as readonly string[]).includes(name))
          problems.push(`${label}: unknown placeholder {${name}} in "${template}"`);
    }
  }
  return problems;
}

/** One reporting method per reported kind, or one per level (PHP only: the JS kit reads `method`). */
function checkMethods(failure: FailureKind, label: string): string[] {
  if (failure.levels === undefined) {
    return failure.method
      ? []
      : [`${label}: ${failure.severity} x ${failure.priority} is no cell of the method table`];
  }
  const problems: string[] = [];
  if (failure.severity !== undefined || failure.priority !== undefined)
    problems.push(`${label}: give levels or a severity and priority, not both`);
  if (failure.sdks.includes('js'))
    problems.push(`${label}: levels are for the PHP SDK only (the JS kit reads one method)`);
  if (failure.levels.length === 0) problems.push(`${label}: levels must not be empty`);
  const seen = new Set<string>();
  for (const level of failure.levels) {
    if (!/^[a-z]+$/.test(level.level) || seen.has(level.level))
      problems.push(`${label}: level "${level.level}" must be a unique lower-case name`);
    seen.add(level.level);
    if (!level.method)
      problems.push(
        `${label}: level ${level.level}: ${level.severity} x ${level.priority} is no cell of the method table`,
      );
  }
  return problems;
}
