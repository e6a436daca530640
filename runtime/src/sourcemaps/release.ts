// The release a build's maps are keyed by: the user's, else an id made for this build, which the
// build integration also sets as the `release:` tag of the build's reports (browser and server),
// so the reports find the maps.

/**
 * A build id for a build without a release: `build-` + the UTC time to the second + 6 random
 * base-36 characters (`build-20261128T083412Z-k3f9a2`, 29 characters: well within a tag).
 */
export function buildRelease(now = Date.now(), random: () => number = Math.random): string {
  const time = new Date(now)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  let suffix = '';
  for (let i = 0; i < 6; i++) suffix += Math.floor(random() * 36).toString(36);
  return `build-${time}-${suffix}`;
}

/** The variable a build records its made-up release in, so that every process of one build agrees. */
export const BUILD_RELEASE_ENV = 'SVC_BUILD_RELEASE';

/**
 * The release of this build: `given` (the user's, from an option or a variable), else one made
 * for it. With `shared` (the process environment of a build whose bundler starts workers that
 * load the config again: Next's), the made one is kept there under `SVC_BUILD_RELEASE`, and read
 * back, so that every process of the build agrees; workers inherit it.
 */
export function releaseOfBuild(
  given: string | undefined,
  shared?: Record<string, string | undefined>,
): { release: string; generated: boolean } {
  const user = given?.trim();
  if (user) return { release: user, generated: false };
  const kept = shared?.[BUILD_RELEASE_ENV]?.trim();
  if (kept) return { release: kept, generated: true };
  const release = buildRelease();
  if (shared) shared[BUILD_RELEASE_ENV] = release;
  return { release, generated: true };
}
