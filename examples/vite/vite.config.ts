import react from '@vitejs/plugin-react';
import { svc } from '@svc/vite';
import { defineConfig } from 'vite';

// svc(): client config from VITE_SERVICE_URL and VITE_SERVICE_API_KEY, secret-leak guard, hidden
// source maps.
export default defineConfig({
  plugins: [react(), svc({ sourceMaps: true })],
});
