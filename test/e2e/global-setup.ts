/** Builds the renderer once before the specs, so parallel browser hosts do not each build it. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureRendererBuilt } from '../../electron/renderer-build';

export default async function globalSetup(): Promise<void> {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  await ensureRendererBuilt(root, path.join(root, 'dist', 'renderer'));
}
