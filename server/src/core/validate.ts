import { LIMITS, UNTITLED_TITLE } from '../generated/limits.gen.ts';
import { taskReportSchema } from '../generated/schema.gen.ts';
import { schemaChecker } from './schema-check.ts';
import type { TaskReport } from '../domain/types.ts';

export type FieldErrors = Record<string, string[]>;
export type Validated = { ok: true; report: TaskReport } | { ok: false; errors: FieldErrors };

const DEFAULT_PRIORITY = taskReportSchema.properties.priority.default;
const OPTIONAL = ['priority', 'title', 'description', 'tags', 'file_name', 'line_number'] as const;
const TEXT = ['title', 'description', 'file_name'] as const;

/** The generated schema, interpreted (./schema-check.ts: no code built from strings). */
const check = schemaChecker(taskReportSchema);

const add = (errors: FieldErrors, field: string, message: string) => {
  errors[field] = [...(errors[field] ?? []), message];
};

type WellFormed = { isWellFormed(): boolean; toWellFormed(): string };

/**
 * Lone surrogates (JSON allows `"\ud800"`) become U+FFFD, before validation counts characters,
 * before dedup compares and before storing: what is compared is what is stored, as valid UTF-8.
 */
export const wellFormed = (text: string): string =>
  (text as unknown as WellFormed).isWellFormed()
    ? text
    : (text as unknown as WellFormed).toWellFormed();

const wellFormedOrSame = (value: unknown) =>
  typeof value === 'string' ? wellFormed(value) : value;

/** CSV or array tags -> well-formed, trimmed, de-duplicated, empty entries dropped. */
export function normaliseTags(tags: unknown): string[] {
  const list = typeof tags === 'string' ? tags.split(',') : Array.isArray(tags) ? tags : [];
  return [...new Set(list.map((t) => wellFormed(String(t)).trim()).filter((t) => t !== ''))];
}

/** Title when absent or blank: the first non-empty line of the description, else `UNTITLED_TITLE`. */
export function deriveTitle(description: string | null): string {
  const line = description?.split(/\r?\n/).find((l) => l.trim() !== '');
  return line ? [...line.trim()].slice(0, LIMITS.titleMax).join('') : UNTITLED_TITLE;
}

/**
 * Validates a plaintext body against the generated request schema and normalises it. Unknown
 * keys are ignored; `null` in an optional field counts as absent.
 */
export function validateReport(body: unknown): Validated {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, errors: { body: ['The body must be a JSON object.'] } };
  }
  let input = body as Record<string, unknown>;
  // Copied only when something must change (the caller's object is left as it was).
  const needsCopy =
    OPTIONAL.some((k) => input[k] === null) ||
    TEXT.some((k) => typeof input[k] === 'string' && wellFormed(input[k] as string) !== input[k]);
  if (needsCopy) {
    input = { ...input };
    for (const k of OPTIONAL) if (input[k] === null) delete input[k];
    for (const k of TEXT) if (k in input) input[k] = wellFormedOrSame(input[k]);
  }
  const errors: FieldErrors = {};
  if (!check(input)) {
    for (const e of check.errors ?? []) {
      const field =
        e.keyword === 'required'
          ? String(e.params.missingProperty)
          : e.instancePath.split('/')[1] || 'body';
      const msg = `The ${field} field ${e.keyword === 'required' ? 'is required' : e.message}.`;
      if (!errors[field]?.includes(msg)) add(errors, field, msg);
    }
  }
  const tags = errors.tags ? [] : normaliseTags(input.tags);
  if (tags.length > LIMITS.tagsPerReport) {
    add(errors, 'tags', `The tags field must NOT have more than ${LIMITS.tagsPerReport} items.`);
  } else {
    for (const t of tags) {
      if ([...t].length > LIMITS.tagMax) {
        add(errors, 'tags', `Each tag may have at most ${LIMITS.tagMax} characters.`);
        break;
      }
    }
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const description = (input.description as string | undefined) ?? null;
  const title = typeof input.title === 'string' && input.title.trim() !== '' ? input.title : null;
  return {
    ok: true,
    report: {
      severity: input.severity as TaskReport['severity'],
      priority: (input.priority as TaskReport['priority'] | undefined) ?? DEFAULT_PRIORITY,
      title: title ?? deriveTitle(description),
      description,
      tags,
      file_name: (input.file_name as string | undefined) ?? null,
      line_number: (input.line_number as number | undefined) ?? null,
    },
  };
}
