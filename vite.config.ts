/**
 * Builds the renderer (`renderer/`) into `dist/renderer`. Relative asset paths (`base: './'`) let the same build load
 * from Electron's `app://` protocol and from `/` of the browser host; the entry is an external module script because
 * the Content Security Policy allows no inline script.
 */
import { fileURLToPath } from 'node:url';
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('./renderer', import.meta.url)),
  base: './',
  plugins: [vue()],
  // Compile-time flags of Vue and vue-i18n: no devtools or legacy API in the build, so they are left out of the bundle.
  define: {
    __VUE_OPTIONS_API__: 'true',
    __VUE_PROD_DEVTOOLS__: 'false',
    __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
    __VUE_I18N_FULL_INSTALL__: 'true',
    __VUE_I18N_LEGACY_API__: 'false',
    __INTLIFY_PROD_DEVTOOLS__: 'false',
  },
  // The sync worker is an ES module like the page, so it shares the page's chunks (Dexie, the sync engine).
  worker: { format: 'es' },
  build: {
    outDir: fileURLToPath(new URL('./dist/renderer', import.meta.url)),
    emptyOutDir: true,
    // Chromium of Electron 45 and current browsers support modulepreload; the polyfill would be dead weight.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1500,
  },
  server: { host: '127.0.0.1', strictPort: false },
});
