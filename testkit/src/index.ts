export {
  CHROMIUM_ARGS,
  type ChromiumFound,
  chromiumPath,
  findChromium,
  launchChromium,
} from './chromium.ts';
export { type ServiceAndApp, type TestService, useServiceAndApp } from './lifecycle.ts';
export { spawnProcess, type Spawned } from './process.ts';
