/**
 * Before the e2e tests: Chromium from CHROMIUM_PATH or /usr/bin/chromium when present (CI and Debian), else
 * Playwright's own, installed here on first use, so `npm test` is complete on its own on a laptop too.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { chromiumPath } from './chromium-path';

if (chromiumPath() !== undefined) process.exit(0);
if (existsSync(chromium.executablePath())) process.exit(0);
console.log('No Chromium found (CHROMIUM_PATH, /usr/bin/chromium): installing Playwright’s Chromium for the e2e tests…');
const install = spawnSync('npx', ['playwright', 'install', 'chromium'], { stdio: 'inherit', shell: process.platform === 'win32' });
process.exit(install.status ?? 1);
