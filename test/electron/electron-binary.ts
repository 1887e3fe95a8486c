/** The installed Electron binary, if any: the npm package answers its path, and throws when the binary was never fetched. */
import { createRequire } from 'node:module';

export function installedElectronBinary(): string | undefined {
  try {
    return createRequire(import.meta.url)('electron') as string;
  } catch {
    return undefined;
  }
}
