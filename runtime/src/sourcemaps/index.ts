// `@svc/runtime/sourcemaps` (Node only, build time): a build's source maps uploaded to the service
// and removed from what is deployed. The build integrations (`@svc/vite`, `@svc/next`,
// `@svc/nuxt`) and the `svc-sourcemaps` command call it; never part of a browser bundle.
export { chainMaps } from './chain.ts';
export { runCli, USAGE } from './cli.ts';
export {
  findDebugIdComment,
  type FolderContents,
  mapFileOf,
  type MappedChunk,
  normalPrefix,
  type OutputFolder,
  readFolder,
} from './folder.ts';
export { BUILD_RELEASE_ENV, buildRelease, releaseOfBuild } from './release.ts';
export {
  redactUrl,
  SOURCEMAPS_PATH,
  type UploadOutcome,
  type UploadTarget,
  uploadMap,
} from './request.ts';
export { projectSource, withProjectSources } from './sources.ts';
export { stripMaps, withoutMapComment } from './strip.ts';
export { type UploadOptions, type UploadResult, uploadSourceMaps } from './upload.ts';
