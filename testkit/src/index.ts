export { CHROMIUM_ARGS, CHROMIUM_PATH, launchChromium, routeService } from './chromium.ts';
export { type ServiceAndApp, type TestService, useServiceAndApp } from './lifecycle.ts';
export { REDIRECT_PRELOAD, spawnProcess, type Spawned } from './process.ts';
