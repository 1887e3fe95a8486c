/**
 * A server holding a portfolio with a building whose mapped IFC model (a public fixture) is active and calculated, so
 * the dashboard and the elements grid show real figures; and the app in browser mode provisioned for it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from '@playwright/test';
import { ifcFixture } from '../fixtures/files';
import { remoteApi, startBrowserHost, startRemoteServer, type BrowserHost, type RemoteServer } from './processes';

export interface BuildingWithFigures {
  host: BrowserHost;
  server: RemoteServer;
  buildingId: string;
  fileId: string;
  stop(): Promise<void>;
}

export async function startBuildingWithFigures(): Promise<BuildingWithFigures> {
  const key = randomBytes(24).toString('base64url');
  const work = await mkdtemp(path.join(os.tmpdir(), 'circularity-desk-e2e-figures-'));
  const server = await startRemoteServer({ key, dataDir: path.join(work, 'server'), demo: false });
  const portfolio = await remoteApi<{ id: string }>(server, 'POST', '/portfolios', { name: 'Campus Noord' });
  const building = await remoteApi<{ id: string }>(server, 'POST', '/buildings', {
    portfolioId: portfolio.id,
    name: 'Office on the square',
    street: 'Stationsplein',
    houseNumber: '12',
    city: 'Utrecht',
    grossSurfaceArea: 4200,
  });
  await remoteApi(server, 'POST', '/buildings', { portfolioId: portfolio.id, name: 'Library' });
  const file = await remoteApi<{ id: string }>(server, 'POST', `/buildings/${building.id}/files`, { type: 0 });
  await remoteApi(server, 'POST', `/buildings/${building.id}/files/${file.id}/upload/office.ifc`, new Uint8Array(await readFile(ifcFixture('example.ifc'))));
  await expect
    .poll(async () => (await remoteApi<{ status: number }>(server, 'GET', `/buildings/${building.id}/files/${file.id}/status`)).status, { timeout: 90_000 })
    .toBe(3);
  // Active and calculated, so the dashboard shows the model's figures.
  await remoteApi(server, 'POST', `/buildings/${building.id}/files/${file.id}/active`, true);
  await remoteApi(server, 'POST', `/buildings/${building.id}/process`);
  await expect.poll(async () => (await remoteApi<{ isDirty: boolean }>(server, 'GET', `/buildings/${building.id}`)).isDirty, { timeout: 90_000 }).toBe(false);
  const keyFile = path.join(work, 'team.key');
  await writeFile(keyFile, `${key}\n`, { mode: 0o600 });
  const host = await startBrowserHost(['--connect', server.url, '--key-file', keyFile]);
  return {
    host,
    server,
    buildingId: building.id,
    fileId: file.id,
    async stop() {
      await host.stop();
      await server.stop();
      await rm(work, { recursive: true, force: true });
    },
  };
}
