export { svc, svcFor, VIRTUAL_ID, type SvcViteOptions } from './plugin.ts';
