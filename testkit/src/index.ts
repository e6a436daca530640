export { CHROMIUM_ARGS, CHROMIUM_PATH, launchChromium, routeService } from './chromium.ts';
export { REDIRECT_PRELOAD, spawnProcess, type Spawned } from './process.ts';
