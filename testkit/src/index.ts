export {
  CHROMIUM_ARGS,
  type ChromiumFound,
  chromiumPath,
  findChromium,
  launchChromium,
} from './chromium.ts';
export { type ServiceAndApp, type TestService, useServiceAndApp } from './lifecycle.ts';
export { spawnProcess, type Spawned } from './process.ts';
export {
  badEngines,
  commandLines,
  packWorkspaces,
  REPO_ROOT,
  runSetup,
  type SetupOptions,
  type SetupResult,
  sh,
  userEnv,
  withSiblings,
} from './generated-app.ts';
export { blockVariables, readmeBlock, readmeBlocks } from './readme.ts';
export { type OfflineFonts, offlineFonts } from './next-fonts.ts';
export { freePort } from './ports.ts';
export { keptOffline, offlineQueueOpened, watchOfflineQueue } from './offline-queue.ts';
export { AFTER_NODE24_LEG, afterNode24Leg } from './legs.ts';
export { inRange, NODE_MAJORS, type NodeMajor, nodeEnv, type TestNode, testNode } from './nodes.ts';
export { type ListedSourceMap, listSourceMaps, SVC_SERVER_BIN } from './sourcemaps.ts';
