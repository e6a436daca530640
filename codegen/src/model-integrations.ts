// The integrations part of the generator's model (`x-svc-integrations`): the frameworks with the
// public prefix of their browser builds, and the failure kinds every integration reports the same
// way (method, title place, tags). `validateModel` (./model.ts) runs the checks below.
import type { MethodTable } from './model.ts';

/** One framework integration; `publicPrefix` is how its browser builds name a public setting. */
export interface Framework {
  name: string;
  publicPrefix?: string;
}

/** Where a failure happens. */
export const SIDES = ['server', 'browser'] as const;
export type Side = (typeof SIDES)[number];

/** How one kind of failure is reported: every field but `kind`, `description` and `report` is absent when `report` is false. */
export interface FailureKind {
  kind: string;
  description: string;
  report: boolean;
  side?: Side;
  severity?: string;
  priority?: string;
  /** The reporting method of `severity` x `priority` (its cell of the method table, not the alias). */
  method?: string;
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
export const PLACEHOLDERS = ['framework', 'method', 'route', 'ui'] as const;

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
    if (framework.publicPrefix !== undefined && !/^[A-Z][A-Z0-9_]*_$/.test(framework.publicPrefix))
      problems.push(`framework ${framework.name}: public prefix must be upper-case, ending in _`);
  }
  const kinds = new Set<string>();
  for (const failure of failures) {
    const label = `failure ${failure.kind}`;
    if (!/^[a-z][a-z-]*$/.test(failure.kind)) problems.push(`${label}: kind must be kebab-case`);
    if (kinds.has(failure.kind)) problems.push(`duplicate failure kind "${failure.kind}"`);
    kinds.add(failure.kind);
    if (!failure.report) continue;
    if (!(SIDES as readonly string[]).includes(failure.side ?? ''))
      problems.push(`${label}: side must be one of ${SIDES.join(', ')}`);
    if (!failure.method)
      problems.push(
        `${label}: ${failure.severity} x ${failure.priority} is no cell of the method table`,
      );
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
