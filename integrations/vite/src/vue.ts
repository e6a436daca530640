import { getShared, type SvcClient } from '@svc/runtime';
import type { App } from 'vue';
import { errorTitle, PLACES } from '@svc/runtime/kit';

/**
 * Sets `app.config.errorHandler` to report component errors as `critical` cards, chaining the
 * handler already present. Without one, the error is still printed with `console.error`, as Vue
 * does by default. Returns an uninstaller that restores the previous handler.
 */
export function installVueErrorHandler(app: App, client?: SvcClient): () => void {
  const previous = app.config.errorHandler;
  app.config.errorHandler = (err, instance, info) => {
    try {
      (client ?? getShared())?.critical(errorTitle(err, PLACES.vueComponent), err, [
        'browser',
        'vue',
      ]);
    } catch {
      // never throw into the app
    }
    if (previous) previous(err, instance, info);
    else console.error(err);
  };
  return () => {
    app.config.errorHandler = previous;
  };
}
