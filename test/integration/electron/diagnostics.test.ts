/**
 * Export diagnostics through the real desktop host (real Local workspace server, real vault): the zip holds the logs,
 * versions and settings, and no key in any spelling, not even one a log line caught.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCAL_CONNECTION_ID, LOCAL_KEY_ORIGIN } from '../../../electron/connections';
import type { DesktopHost } from '../../../electron/desktop';
import { KEY_REMOVED } from '../../../electron/diagnostics';
import { MemoryVault } from '../../../electron/vault';
import { startTestDesktopHost } from './desktop-harness';

const TEAM_KEY = 'cd_live_9f3K2mQx7VbT1wZr8LpN4sYh6JdE0aGu';

let folder: string;
let host: DesktopHost | undefined;

beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'diagnostics-'));
});

afterEach(async () => {
  await host?.close();
  host = undefined;
  await rm(folder, { recursive: true, force: true });
});

function spellingsOf(key: string): string[] {
  const bytes = Buffer.from(key, 'utf8');
  return [key, bytes.toString('base64'), bytes.toString('base64url'), bytes.toString('hex')];
}

describe('Export diagnostics', { timeout: 120_000 }, () => {
  it('zips the logs, versions and settings, and never a key', async () => {
    const logsDir = path.join(folder, 'logs');
    await mkdir(logsDir);
    await writeFile(path.join(logsDir, 'main.log'), `2026-03-01T10:00:00.000Z Sending with x-api-key ${TEAM_KEY}\n`);
    await writeFile(path.join(logsDir, 'main.old.log'), `2026-02-28T09:00:00.000Z Authorization: Basic ${Buffer.from(TEAM_KEY).toString('base64')}\n`);
    const vault = new MemoryVault();
    const saved = path.join(folder, 'saved');
    await mkdir(saved);
    const asked: string[] = [];
    host = await startTestDesktopHost(path.join(folder, 'user-data'), {
      vault,
      logsDir,
      chooseSaveTarget: async (fileName) => {
        asked.push(fileName);
        return path.join(saved, fileName);
      },
    });
    await host.provision('https://team.example.com', TEAM_KEY);
    const localKey = await vault.get(LOCAL_CONNECTION_ID, LOCAL_KEY_ORIGIN);
    expect(localKey).toBeDefined();

    const exported = await host.handlers['app:export-diagnostics']({});
    expect(asked).toEqual([expect.stringMatching(/^circularity-desk-diagnostics-\d{4}-\d{2}-\d{2}\.zip$/)]);
    expect(exported.path).toBe(path.join(saved, asked[0] ?? ''));

    const bytes = await readFile(exported.path ?? '');
    const zip = await JSZip.loadAsync(bytes);
    const names = Object.keys(zip.files).filter((name) => !zip.files[name]?.dir).sort();
    expect(names).toEqual(['connections.json', 'drop-folders.json', 'logs/main.log', 'logs/main.old.log', 'passport-folders.json', 'versions.json']);
    const texts = new Map<string, string>();
    for (const name of names) texts.set(name, (await zip.file(name)?.async('string')) ?? '');

    for (const key of [TEAM_KEY, localKey ?? '']) {
      for (const spelling of spellingsOf(key)) {
        expect(bytes.includes(Buffer.from(spelling))).toBe(false);
        for (const [name, text] of texts) expect(text.includes(spelling), `${name} holds a key`).toBe(false);
      }
    }
    expect(texts.get('logs/main.log')).toBe(`2026-03-01T10:00:00.000Z Sending with x-api-key ${KEY_REMOVED}\n`);
    expect(texts.get('logs/main.old.log')).toBe(`2026-02-28T09:00:00.000Z Authorization: Basic ${KEY_REMOVED}\n`);
    expect(JSON.parse(texts.get('versions.json') ?? '')).toEqual({
      app: '0.0.0-test',
      node: process.versions.node,
      platform: process.platform,
      arch: process.arch,
    });
    const connections = JSON.parse(texts.get('connections.json') ?? '') as { name: string; baseUrl: string; apiVersion: string; hasKey: boolean }[];
    expect(connections.find((connection) => connection.baseUrl === 'https://team.example.com')).toMatchObject({ apiVersion: 'v2.3', hasKey: true });
    expect(connections.map((connection) => Object.keys(connection).sort())).toEqual(
      connections.map(() => ['apiVersion', 'baseUrl', 'hasKey', 'kind', 'name']),
    );
    expect(JSON.parse(texts.get('drop-folders.json') ?? '')).toEqual([]);
    expect(JSON.parse(texts.get('passport-folders.json') ?? '')).toEqual([]);
  });

  it('answers no path when the save dialog is cancelled', async () => {
    host = await startTestDesktopHost(path.join(folder, 'user-data'), { logsDir: path.join(folder, 'logs'), chooseSaveTarget: async () => null });
    expect(await host.handlers['app:export-diagnostics']({})).toEqual({ path: null });
  });
});
