/**
 * Starts the renderer: finds the host (Electron's preload Bridge or the browser host's socket), then mounts the app.
 * Without a host the app shows how to open the page properly.
 */
import { createPinia } from 'pinia';
import { createApp } from 'vue';
import App from './App.vue';
import { BRIDGE_KEY, connectBridge } from './bridge';
import { createAppI18n } from './i18n';
import { createAppRouter } from './router';
import { CYCLE_RUNNER_KEY } from './stores/sync';
import { workerCycleRunner } from './sync/cycle-runner';
import './visually-hidden.css';

const connection = connectBridge(window);
// The ui store sets the language it keeps before the first render; English is only the starting point.
const app = createApp(App, { connected: connection.kind === 'ready' });
app.use(createPinia());
app.use(createAppI18n('en'));
if (connection.kind === 'ready') {
  app.provide(BRIDGE_KEY, connection.handle);
  app.provide(
    CYCLE_RUNNER_KEY,
    workerCycleRunner(() => new Worker(new URL('./sync/sync-worker.ts', import.meta.url), { type: 'module', name: 'sync' })),
  );
  app.use(createAppRouter());
}
app.mount('#app');
