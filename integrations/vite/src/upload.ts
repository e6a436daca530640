// `sourceMaps: 'upload'`: after the client build is written, its maps go to the service and leave
// `outDir` (the runtime's `@svc/runtime/sourcemaps` does both and says so in one line), keyed by
// the release the build's reports carry: the user's, else one made for this build.
import { resolve } from 'node:path';
import { normalPrefix, releaseOfBuild, uploadSourceMaps } from '@svc/runtime/sourcemaps';
import type { ResolvedConfig } from 'vite';

/** One build's upload: its release (set as the client's `release`), and the run after writing. */
export interface BuildUpload {
  release: string;
  run(log: (line: string) => void): Promise<void>;
}

/**
 * The URL path the chunks are served under, from `base`: `/app/` and `https://cdn.example/app/`
 * give `app/`; a relative base (`./`) gives the site root (the page's own path is unknown).
 */
function basePrefix(base: string): string {
  return base.startsWith('.') ? '' : normalPrefix(base);
}

export function buildUpload(
  resolved: ResolvedConfig,
  env: Record<string, string | undefined>,
  release: string | undefined,
  serviceUrl: string | undefined,
): BuildUpload {
  const build = releaseOfBuild(release);
  return {
    release: build.release,
    async run(log) {
      await uploadSourceMaps({
        folders: [
          {
            dir: resolve(resolved.root, resolved.build.outDir),
            pathPrefix: basePrefix(resolved.base),
            strip: true,
          },
        ],
        release: build.release,
        projectRoot: resolved.root,
        env,
        ...(serviceUrl ? { serviceUrl } : {}),
        log,
      });
    },
  };
}
