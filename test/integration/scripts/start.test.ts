/**
 * `npm start` on a machine where Electron cannot show a window: it says why and runs the app in browser mode, with
 * the Local workspace and its sample data, and it stops with its child when stopped.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TSX = createRequire(import.meta.url).resolve('tsx');
let userDataDir: string | undefined;

afterEach(async () => {
  if (userDataDir !== undefined) await rm(userDataDir, { recursive: true, force: true });
});

// Only Linux has a session without a display (no DISPLAY or WAYLAND_DISPLAY); Windows and macOS always have one.
describe.runIf(process.platform === 'linux')('npm start without a display', () => {
  it('falls back to browser mode, which serves the app with the sample data, and stops on SIGTERM', async () => {
    userDataDir = await mkdtemp(path.join(os.tmpdir(), 'start-'));
    const child = spawn(process.execPath, ['--import', TSX, path.join(ROOT, 'scripts', 'start.ts'), '--port', '0', '--user-data', userDataDir], {
      cwd: ROOT,
      env: { ...process.env, DISPLAY: '', WAYLAND_DISPLAY: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        lines.push(...String(chunk).split('\n'));
        const found = lines.map((line) => /running at (http:\/\/127\.0\.0\.1:\d+\/\S+)/.exec(line)).find((match) => match !== null);
        if (found) resolve(found[1] ?? '');
      });
      child.once('exit', (code) => reject(new Error(`npm start exited with ${code}: ${lines.join('\n')}`)));
    });
    expect(lines.join('\n')).toContain('There is no display');
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('id="app"');

    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // The browser host stopped with it: nothing answers at its address any more.
    await expect(fetch(url)).rejects.toThrow();
  }, 180_000);
});
