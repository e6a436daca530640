export { svc, VIRTUAL_ID, type SvcViteOptions } from './plugin.ts';
