// Reads `x-svc-integrations` (the frameworks and the failure kinds every integration shares) into
// the plain model; the reporting method of each kind is looked up in the method table here.
// Shape checks only; the rules live in model-integrations.ts.
import type { Integrations, MethodTable, Side } from '../model.ts';
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
    ...(entry['public-prefix'] === undefined
      ? {}
      : { publicPrefix: String(entry['public-prefix']) }),
  }));
  const failures = list(raw.failures, 'failures').map((entry) => {
    const kind = String(entry.kind);
    const description = String(entry.description ?? '');
    if (entry.report === false) return { kind, description, report: false };
    const severity = String(entry.severity);
    const priority = String(entry.priority);
    return {
      kind,
      description,
      report: true,
      side: String(entry.side) as Side,
      severity,
      priority,
      method: cellMethod(methods, severity, priority),
      place: String(entry.place ?? ''),
      tags: Array.isArray(entry.tags) ? entry.tags.map(String) : [],
    };
  });
  return { frameworks, failures };
}
