import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

/** Debian's Chromium (or the one CHROMIUM_PATH names); Playwright's own browser only when neither exists. */
function chromiumPath(): string | undefined {
  const fromEnvironment = process.env['CHROMIUM_PATH'];
  if (fromEnvironment !== undefined && fromEnvironment !== '') return fromEnvironment;
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
}

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
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
