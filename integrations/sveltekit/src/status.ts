// The status SvelteKit answers an error with, in both of its hooks: SvelteKit 2 hands `handleError`
// the `status`; 3 the `kind` of error (`unknown`: thrown by the app's code, answered 500;
// `framework`: SvelteKit's own, such as a 404, with its status; `app` and `validation`: the app's
// expected errors, which make no card, as in 2, where they never reach `handleError`).

/** The status SvelteKit answers an error with, 2 and 3 alike; 0 for an expected error (no card). */
export function answeredStatus(input: { error: unknown; status?: number; kind?: string }): number {
  if (typeof input.status === 'number') return input.status;
  if (input.kind === 'unknown') return 500;
  if (input.kind === 'framework') {
    const status = (input.error as { status?: unknown } | null)?.status;
    return typeof status === 'number' ? status : 500;
  }
  return 0;
}
