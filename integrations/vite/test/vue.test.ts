import { createSSRApp, defineComponent } from 'vue';
import { renderToString } from 'vue/server-renderer';
import { describe, expect, it, vi } from 'vitest';
import { installVueErrorHandler } from '../src/vue.ts';
import { recordingClient } from './helpers.ts';

// A real Vue app (server renderer, no DOM needed): a component that throws in setup reaches
// app.config.errorHandler through Vue's own error handling.
const Broken = defineComponent({
  setup() {
    throw new Error('component failed');
  },
  render: () => null,
});

describe('installVueErrorHandler', () => {
  it('reports component errors and chains the existing handler', async () => {
    const app = createSSRApp(Broken);
    const previous = vi.fn();
    app.config.errorHandler = previous;
    const client = recordingClient();
    installVueErrorHandler(app, client);
    await renderToString(app);
    expect(client.calls).toEqual([
      expect.objectContaining({
        method: 'majorMedium',
        title: 'Error: component failed (Vue component)',
        tags: ['vite', 'browser', 'error-boundary'],
      }),
    ]);
    expect(previous).toHaveBeenCalledTimes(1);
    expect((previous.mock.calls[0]![0] as Error).message).toBe('component failed');
  });

  it('without a previous handler, still prints the error; the uninstaller restores', async () => {
    const app = createSSRApp(Broken);
    const client = recordingClient();
    const print = vi.spyOn(console, 'error').mockImplementation(() => {});
    const off = installVueErrorHandler(app, client);
    await renderToString(app);
    expect(print).toHaveBeenCalledWith(expect.objectContaining({ message: 'component failed' }));
    print.mockRestore();
    off();
    expect(app.config.errorHandler).toBeUndefined();
  });
});
