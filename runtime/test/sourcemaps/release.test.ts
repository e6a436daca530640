import { expect, it } from 'vitest';
import { BUILD_RELEASE_ENV, buildRelease, releaseOfBuild } from '../../src/sourcemaps/release.ts';

it('a made-up release: build-, the UTC second, 6 random characters; short enough for a tag', () => {
  const id = buildRelease(Date.UTC(2026, 10, 28, 8, 34, 12, 345), () => 0.5);
  expect(id).toBe('build-20261128T083412Z-iiiiii');
  expect(`release:${id}`.length).toBeLessThanOrEqual(50);
});

it("the user's release wins; a made-up one is shared through the given environment", () => {
  expect(releaseOfBuild(' 1.4.2 ')).toEqual({ release: '1.4.2', generated: false });
  const env: Record<string, string | undefined> = {};
  const first = releaseOfBuild(undefined, env);
  expect(first.generated).toBe(true);
  expect(env[BUILD_RELEASE_ENV]).toBe(first.release);
  // A worker process of the same build (it inherits the variable) agrees.
  expect(releaseOfBuild('', { ...env })).toEqual(first);
  // Without a shared environment every build makes its own.
  expect(releaseOfBuild(undefined).release).not.toBe(first.release);
});
