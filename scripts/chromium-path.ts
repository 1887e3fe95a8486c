import { existsSync } from 'node:fs';

/** Debian's Chromium (or the one CHROMIUM_PATH names); undefined (Playwright's own browser) when neither exists. */
export function chromiumPath(): string | undefined {
  const fromEnvironment = process.env['CHROMIUM_PATH'];
  if (fromEnvironment !== undefined && fromEnvironment !== '') return fromEnvironment;
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
}

/** The switches every run of Chromium here gets: no sandbox (containers), no GPU, nothing from the network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
] as const;
