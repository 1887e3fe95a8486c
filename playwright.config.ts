import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './scripts/chromium-path';

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './test/e2e/global-setup.ts',
  outputDir: 'test-results/e2e',
  timeout: 90_000,
  expect: { timeout: 20_000 },
  workers: process.env['CI'] === undefined ? undefined : 2,
  forbidOnly: process.env['CI'] !== undefined,
  reporter: 'list',
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: chromiumPath(),
      args: [...CHROMIUM_ARGS],
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
