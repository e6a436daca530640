// A report's environment and release (contract 2.1: SDKs fold `environment` and `release` into
// tags as `env:<value>` and `release:<value>`), and the order of releases that release-aware
// resolution compares: semver where both names parse as semver, else the order in which the
// project first saw them.

const ENV_TAG = 'env:';
const RELEASE_TAG = 'release:';

/**
 * The environment a report without an `env:` tag counts in. The integrations tag every report of
 * a development server `env:development`, so a report naming no environment comes from a deployed
 * app that did not name one, or from a client that sets no environment at all: both belong in the
 * board's default view.
 */
export const DEFAULT_ENV = 'production';

const firstValue = (tags: readonly string[], prefix: string): string | null => {
  const tag = tags.find((t) => t.startsWith(prefix) && t.length > prefix.length);
  return tag === undefined ? null : tag.slice(prefix.length);
};

/** The value of the first `release:<value>` tag, else null. */
export const releaseOf = (tags: readonly string[]): string | null => firstValue(tags, RELEASE_TAG);

/** The value of the first `env:<value>` tag, else `DEFAULT_ENV`. */
export const environmentOf = (tags: readonly string[]): string =>
  firstValue(tags, ENV_TAG) ?? DEFAULT_ENV;

/** How a release was found to be the resolved one or newer (the card's history shows it). */
export type ReleaseOrdering = 'same' | 'semver' | 'first_sight';

interface Semver {
  core: [number, number, number];
  pre: (string | number)[];
}

// semver.org 2.0.0, with an optional leading `v`; build metadata is parsed and ignored.
const SEMVER =
  /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/** A semver name's parts, or null when it does not parse as one. */
export function parseSemver(name: string): Semver | null {
  const m = SEMVER.exec(name);
  if (!m) return null;
  const core = [Number(m[1]), Number(m[2]), Number(m[3])] as [number, number, number];
  if (!core.every(Number.isSafeInteger)) return null;
  const pre =
    m[4] === undefined ? [] : m[4].split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  return { core, pre };
}

/** Semver precedence: negative when `a` is older, 0 when equal, positive when newer. */
export function compareSemver(a: Semver, b: Semver): number {
  for (let i = 0; i < 3; i++) if (a.core[i] !== b.core[i]) return a.core[i]! - b.core[i]!;
  // A pre-release is older than its release; identifiers compare one by one.
  if (a.pre.length === 0 || b.pre.length === 0) return b.pre.length - a.pre.length;
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const x = a.pre[i]!;
    const y = b.pre[i]!;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    if (typeof x === 'number') return -1;
    if (typeof y === 'number') return 1;
    return x < y ? -1 : 1;
  }
  return a.pre.length - b.pre.length;
}

/**
 * Whether `release` is `resolved` or newer, and how that was decided; null when it is older or
 * cannot be placed. `firstSeen` gives a release's place in the order the project first saw
 * releases (null: never seen, so first seen now). Both semver: by precedence. Else by first
 * sight: a release first seen after the resolved one is newer; while the resolved release itself
 * was never seen, every other (non-semver) release is older. A report without a release cannot be
 * shown to be newer.
 */
export function atOrAfter(
  release: string | null,
  resolved: string,
  firstSeen: (name: string) => number | null,
): ReleaseOrdering | null {
  if (release === null) return null;
  if (release === resolved) return 'same';
  const a = parseSemver(release);
  const b = parseSemver(resolved);
  if (a && b) return compareSemver(a, b) >= 0 ? 'semver' : null;
  const resolvedAt = firstSeen(resolved);
  if (resolvedAt === null) return null;
  const releaseAt = firstSeen(release);
  return releaseAt === null || releaseAt > resolvedAt ? 'first_sight' : null;
}

/**
 * The newest of releases listed in the order first seen: the highest semver when every one
 * parses as semver, else the one seen last. Null for none.
 */
export function newestRelease(names: readonly string[]): string | null {
  if (names.length === 0) return null;
  const parsed = names.map(parseSemver);
  if (parsed.some((p) => p === null)) return names.at(-1)!;
  let best = 0;
  for (let i = 1; i < names.length; i++) {
    if (compareSemver(parsed[i]!, parsed[best]!) > 0) best = i;
  }
  return names[best]!;
}
