// Reads `x-svc-integrations` (the frameworks of each SDK and the failure kinds every integration
// shares) into the plain model; the reporting method of each kind (or of each level of a log
// record) is looked up in the method table here. Shape checks only; the rules live in
// model-integrations.ts.
import type { Integrations, LevelReport, MethodTable, Sdk, Side } from '../model.ts';
import { cellMethod } from '../model-integrations.ts';
import { type Doc, isObject } from './document.ts';

const list = (value: unknown, where: string): Record<string, unknown>[] => {
  if (!Array.isArray(value) || !value.every(isObject))
    throw new Error(`x-svc-integrations: ${where} must be a list of mappings`);
  return value as Record<string, unknown>[];
};

export function readIntegrations(doc: Doc, methods: MethodTable): Integrations {
  const raw = doc['x-svc-integrations'];
  if (!isObject(raw)) throw new Error('x-svc-integrations is required');
  const frameworks = list(raw.frameworks, 'frameworks').map((entry) => ({
    name: String(entry.name),
    sdk: String(entry.sdk) as Sdk,
    ...(entry['public-prefix'] === undefined
      ? {}
      : { publicPrefix: String(entry['public-prefix']) }),
  }));
  const failures = list(raw.failures, 'failures').map((entry) => {
    const kind = String(entry.kind);
    const description = String(entry.description ?? '');
    const sdks = (Array.isArray(entry.sdks) ? entry.sdks : []).map(String) as Sdk[];
    if (entry.report === false) return { kind, description, sdks, report: false };
    const common = {
      kind,
      description,
      sdks,
      report: true,
      side: String(entry.side) as Side,
    };
    const where = {
      place: String(entry.place ?? ''),
      tags: Array.isArray(entry.tags) ? entry.tags.map(String) : [],
    };
    if (entry.levels !== undefined) {
      return {
        ...common,
        ...(entry.severity === undefined ? {} : { severity: String(entry.severity) }),
        ...(entry.priority === undefined ? {} : { priority: String(entry.priority) }),
        levels: list(entry.levels, `failure ${kind}: levels`).map((row) => level(methods, row)),
        ...where,
      };
    }
    const severity = String(entry.severity);
    const priority = String(entry.priority);
    return {
      ...common,
      severity,
      priority,
      method: cellMethod(methods, severity, priority),
      ...where,
    };
  });
  return { frameworks, failures };
}

function level(methods: MethodTable, row: Record<string, unknown>): LevelReport {
  const severity = String(row.severity);
  const priority = String(row.priority);
  return {
    level: String(row.level),
    severity,
    priority,
    method: cellMethod(methods, severity, priority),
  };
}
