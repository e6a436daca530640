/// <reference types="@svc/vite/virtual" />
import { initShared } from '@svc/runtime';
import { installGlobalHandlers } from '@svc/vite/client';
import { SvcErrorBoundary } from '@svc/vite/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { config, settings } from 'virtual:svc/config';
import { App } from './App.tsx';

// Svc: one shared client from the plugin's config (VITE_SERVICE_API_KEY, VITE_SERVICE_URL), plus
// window error/unhandledrejection handlers.
installGlobalHandlers(initShared(config, settings));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SvcErrorBoundary fallback={<p>Something broke; it has been reported.</p>}>
      <App />
    </SvcErrorBoundary>
  </StrictMode>,
);
