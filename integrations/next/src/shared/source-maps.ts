// The one value `withSvc({ sourceMaps: 'upload' })` hands the browser client besides its settings:
// that the build's maps were uploaded, so the client sends its frames for the service to map.

/** `next.config` `env` entry Next inlines into the browser build (not a setting of the spec). */
export const UPLOADED_SOURCE_MAPS_ENV = 'NEXT_PUBLIC_SVC_UPLOADED_SOURCE_MAPS';

/** Whether this build uploaded its maps (Next inlines the literal reference at build time). */
export function uploadedSourceMaps(): boolean {
  try {
    return process.env.NEXT_PUBLIC_SVC_UPLOADED_SOURCE_MAPS === 'true';
  } catch {
    return false; // no `process` where nothing was inlined
  }
}
