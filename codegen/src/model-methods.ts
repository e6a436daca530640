// The method table part of the generator's model (`x-svc-method-table`, contract 4): the reporting
// methods, one per severity x priority plus a bare default-priority name per severity, and their
// check. `validateModel` (./model.ts) runs it with every other check.

/** One reporting method: `name(title, description?, tags?)` sets this severity and priority. */
export interface ReportingMethod {
  name: string;
  severity: string;
  priority: string;
  /** True for the bare severity name (`critical`), the default-priority alias. */
  isDefaultAlias: boolean;
}

export interface MethodTable {
  severities: string[];
  priorities: string[];
  defaultPriority: string;
  methods: ReportingMethod[];
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Checks the method table; returns the list of problems (empty when valid). */
export function checkMethodTable(table: MethodTable): string[] {
  const problems: string[] = [];
  const { severities, priorities, defaultPriority, methods } = table;
  const expected = severities.length * (priorities.length + 1);
  if (methods.length !== expected) {
    problems.push(
      `expected exactly ${expected} reporting methods (${severities.length} severities x ` +
        `(${priorities.length} priorities + the bare default-priority name)), got ${methods.length}`,
    );
  }
  if (new Set(severities).size !== severities.length) problems.push('duplicate severity in enum');
  if (new Set(priorities).size !== priorities.length) problems.push('duplicate priority in enum');
  if (!priorities.includes(defaultPriority)) {
    problems.push(`default priority "${defaultPriority}" is not one of ${priorities.join(', ')}`);
  }
  const seen = new Set<string>();
  for (const m of methods) {
    if (seen.has(m.name)) problems.push(`duplicate method name "${m.name}"`);
    seen.add(m.name);
    if (!IDENTIFIER.test(m.name)) problems.push(`method name "${m.name}" is not an identifier`);
    if (!severities.includes(m.severity)) {
      problems.push(`method "${m.name}": severity "${m.severity}" is not in the Severity enum`);
    }
    if (!priorities.includes(m.priority)) {
      problems.push(`method "${m.name}": priority "${m.priority}" is not in the Priority enum`);
    }
    if (m.isDefaultAlias && m.priority !== defaultPriority) {
      problems.push(`bare method "${m.name}" must have the default priority "${defaultPriority}"`);
    }
  }
  for (const severity of severities) {
    if (!methods.some((m) => m.isDefaultAlias && m.severity === severity)) {
      problems.push(`severity "${severity}" has no bare default-priority method`);
    }
    for (const priority of priorities) {
      const cell = methods.filter(
        (m) => !m.isDefaultAlias && m.severity === severity && m.priority === priority,
      );
      if (cell.length !== 1) {
        problems.push(`cell ${severity} x ${priority} has ${cell.length} methods, expected 1`);
      }
    }
  }
  return problems;
}
