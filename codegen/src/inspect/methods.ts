// Reads the severity x priority table (`x-svc-method-table`) and the Severity / Priority enums into
// the plain `MethodTable` model. Shape checks only; the rules live in model.ts.
import type { MethodTable, ReportingMethod } from '../model.ts';
import { type Doc, isObject, schemaComponent } from './document.ts';

function stringEnum(doc: Doc, name: string): string[] {
  const values = schemaComponent(doc, name).enum;
  if (!Array.isArray(values) || !values.every((v) => typeof v === 'string')) {
    throw new Error(`components.schemas.${name}.enum must be a list of strings`);
  }
  return values;
}

export function readMethodTable(doc: Doc): MethodTable {
  const table = doc['x-svc-method-table'];
  if (!isObject(table) || !Array.isArray(table.rows)) {
    throw new Error('x-svc-method-table with a rows list is required');
  }
  const defaultPriority = String(table['default-priority']);
  const methods: ReportingMethod[] = [];
  for (const row of table.rows) {
    if (!isObject(row)) throw new Error('x-svc-method-table: each row must be a mapping');
    const severity = String(row.severity);
    for (const [priority, names] of Object.entries(row)) {
      if (priority === 'severity') continue;
      const list = Array.isArray(names) ? names : [names];
      for (const name of list.map(String)) {
        methods.push({ name, severity, priority, isDefaultAlias: name === severity });
      }
    }
  }
  return {
    severities: stringEnum(doc, 'Severity'),
    priorities: stringEnum(doc, 'Priority'),
    defaultPriority,
    methods,
  };
}
