// The fields of an upload besides the map: `release`, `path`, `debug_id` and `code`, checked
// against the generated `SourceMapUpload` schema (its limits are the spec's) and the rules JSON
// Schema cannot say (no `.` or `..` segment in `path`, no URL, no space around `release`).
import { schemaChecker } from '../core/schema-check.ts';
import { sourceMapUploadSchema } from '../generated/schema.gen.ts';

export type FieldErrors = Record<string, string[]>;

export interface UploadFields {
  release: string;
  path: string;
  /** Lower-case, or null. */
  debugId: string | null;
  code: string | null;
  map: Record<string, unknown>;
}

// The map itself is checked by hand (./compile.ts): a schema error per entry of a hostile
// `sources` array would be millions of objects.
const check = schemaChecker({
  ...sourceMapUploadSchema,
  properties: { ...sourceMapUploadSchema.properties, map: { type: 'object' } },
});

export const addError = (errors: FieldErrors, field: string, message: string) => {
  const list = errors[field] ?? [];
  errors[field] = list;
  if (!list.includes(message) && list.length < 10) list.push(message);
};

/** The upload's own fields, or the errors of each (a 422's `errors`). */
export function checkFields(body: unknown): { fields?: UploadFields; errors: FieldErrors } {
  const errors: FieldErrors = {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { errors: { body: ['The body must be a JSON object.'] } };
  }
  if (!check(body)) {
    for (const e of check.errors ?? []) {
      const field =
        e.keyword === 'required'
          ? String(e.params.missingProperty)
          : e.instancePath.split('/')[1] || 'body';
      addError(
        errors,
        field,
        `The ${field} field ${e.keyword === 'required' ? 'is required' : e.message}.`,
      );
    }
  }
  const input = body as Record<string, unknown>;
  const { release, path } = input;
  if (typeof release === 'string' && release.trim() !== release) {
    addError(errors, 'release', 'The release may not start or end with a space.');
  }
  if (typeof path === 'string' && !errors.path) {
    if (path.includes('://')) {
      addError(errors, 'path', 'The path is a path, not a URL: leave out the origin.');
    } else if (path.split('/').some((s) => s === '' || s === '.' || s === '..')) {
      addError(errors, 'path', 'The path may not have empty, "." or ".." segments.');
    }
  }
  if (Object.keys(errors).length > 0) return { errors };
  return {
    errors,
    fields: {
      release: release as string,
      path: path as string,
      debugId: debugIdOf(input),
      code: typeof input.code === 'string' ? input.code : null,
      map: input.map as Record<string, unknown>,
    },
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `debug_id`, else the map's own `debugId` when it is a UUID; lower-case. */
function debugIdOf(input: Record<string, unknown>): string | null {
  if (typeof input.debug_id === 'string') return input.debug_id.toLowerCase();
  const own = (input.map as Record<string, unknown>).debugId;
  return typeof own === 'string' && UUID.test(own) ? own.toLowerCase() : null;
}
