import { defineConfig } from '@playwright/test';

/** The desktop app in real Electron (`npm run test:electron`), where Electron's binary is installed; see test/electron/. */
export default defineConfig({
  testDir: 'test/electron',
  testMatch: '**/*.spec.ts',
  globalSetup: './test/electron/global-setup.ts',
  outputDir: 'test-results/electron',
  timeout: 300_000,
  expect: { timeout: 30_000 },
  workers: 1,
  forbidOnly: process.env['CI'] !== undefined,
  reporter: 'list',
  use: { trace: 'retain-on-failure', screenshot: 'only-on-failure' },
});
