import type { TaskReport } from '../types.ts';

/**
 * PostgreSQL text cannot hold U+0000 (SQLite can), and a query with it as a parameter fails. The
 * PostgreSQL store therefore keeps U+FFFD (the replacement character) where a report had U+0000,
 * before anything is matched or stored, so such reports are accepted and deduplicate among
 * themselves instead of failing their whole batch.
 */
export const withoutNul = (text: string): string =>
  text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text;

const maybe = (text: string | null) => (text === null ? null : withoutNul(text));

export function reportWithoutNul(report: TaskReport): TaskReport {
  const fields = [report.title, report.description, report.file_name, ...report.tags];
  if (!fields.some((f) => f?.includes('\u0000'))) return report;
  return {
    ...report,
    title: withoutNul(report.title),
    description: maybe(report.description),
    file_name: maybe(report.file_name),
    tags: report.tags.map(withoutNul),
  };
}
