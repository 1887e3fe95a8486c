import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BuildingFileResponse, PortfolioFileResponse } from '../../../../shared/api/schemas';
import {
  CONNECTION,
  createBuilding,
  importIfc,
  until,
  scratchFolder,
  startPassportServer,
  startService,
  type PassportServer,
  type ServiceUnderTest,
} from './harness';

let server: PassportServer;
let scratch: string;
const running: ServiceUnderTest[] = [];

beforeAll(async () => {
  server = await startPassportServer();
  scratch = await scratchFolder('cd-passport-mapped-');
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((each) => each.close()));
});

afterAll(async () => {
  await server.close();
  await rm(scratch, { recursive: true, force: true });
});

async function started(stateDir: string, options: Parameters<typeof startService>[2] = {}): Promise<ServiceUnderTest> {
  const under = await startService(server, stateDir, options);
  running.push(under);
  return under;
}

async function stop(under: ServiceUnderTest): Promise<void> {
  running.splice(running.indexOf(under), 1);
  await under.close();
}

async function fileOf(buildingId: string, fileId: string): Promise<BuildingFileResponse> {
  return (await server.request<BuildingFileResponse>('GET', `/buildings/${buildingId}/files/${fileId}`)).json;
}

async function serverPassports(buildingId: string): Promise<BuildingFileResponse[]> {
  const files = await server.request<BuildingFileResponse[]>('GET', `/buildings/${buildingId}/files`);
  return files.json.filter((file) => file.type === 1000 || file.type === 1001);
}

/** Two checks in a row: whatever one check would start has been started and looked at again. */
async function checkTwice(under: ServiceUnderTest): Promise<void> {
  await under.service.checkNow();
  await under.service.checkNow();
}

describe('passports requested when a source file reaches Mapped', () => {
  it('requests once per source file that reaches Mapped, and not again after a restart', async () => {
    const { buildingId } = await createBuilding(server, 'Automatisch');
    const firstFile = await importIfc(server, buildingId);
    const stateDir = path.join(scratch, 'state-auto');
    const folder = path.join(scratch, 'auto');
    const first = await started(stateDir, { mappedSettleMs: 0 });
    await first.service.addTarget({
      connectionId: CONNECTION,
      subject: { kind: 'building', id: buildingId },
      folder,
      formats: ['pdf', 'xlsx'],
      language: 'fr',
      requestOnMapped: true,
    });
    // The file that was Mapped before the target existed causes nothing.
    await checkTwice(first);
    expect(first.service.history()).toEqual([]);

    const secondFile = await importIfc(server, buildingId);
    const afterSecond = await first.settled(2);
    expect(afterSecond.map((entry) => [entry.origin, entry.format, entry.language, entry.state]).sort()).toEqual([
      ['on-mapped', 'pdf', 'fr', 'downloaded'],
      ['on-mapped', 'xlsx', 'fr', 'downloaded'],
    ]);
    expect(afterSecond.map((entry) => entry.sourceFiles)).toEqual([
      [{ id: secondFile, name: expect.any(String) }],
      [{ id: secondFile, name: expect.any(String) }],
    ]);
    await checkTwice(first);
    expect(first.service.history()).toHaveLength(2);

    // A new version of the first file, another model, is processed again: it reaches Mapped again.
    await importIfc(server, buildingId, 'example.ifc', firstFile);
    const afterVersion = await first.settled(4);
    expect(afterVersion.filter((entry) => entry.sourceFiles.some((file) => file.id === firstFile))).toHaveLength(2);
    expect(await readdir(folder)).toHaveLength(4);
    await stop(first);

    const second = await started(stateDir, { mappedSettleMs: 0 });
    await checkTwice(second);
    expect(second.service.history()).toHaveLength(4);
    expect(second.events.filter((event) => event.type === 'entry-changed')).toEqual([]);
    expect(await serverPassports(buildingId)).toHaveLength(4);
  });

  it('waits until the file has been Mapped for a while by its clock, unless told the file is Mapped', async () => {
    const { buildingId } = await createBuilding(server, 'Geduldig');
    await importIfc(server, buildingId);
    const clock = { offsetMs: 0 };
    const under = await started(path.join(scratch, 'state-settle'), {
      mappedSettleMs: 60_000,
      clock: () => new Date(Date.now() + clock.offsetMs),
    });
    await under.service.addTarget({
      connectionId: CONNECTION,
      subject: { kind: 'building', id: buildingId },
      folder: path.join(scratch, 'settle'),
      formats: ['pdf'],
      language: 'en',
      requestOnMapped: true,
    });
    await checkTwice(under);

    const byClock = await importIfc(server, buildingId);
    await checkTwice(under);
    expect(under.service.history()).toEqual([]);
    clock.offsetMs += 61_000;
    await under.service.checkNow();
    const [settled] = await under.settled(1);
    expect(settled).toMatchObject({ origin: 'on-mapped', state: 'downloaded', sourceFiles: [{ id: byClock }] });

    // A drop folder that saw its file Mapped (and activated it) says so: no waiting.
    const told = await importIfc(server, buildingId);
    await checkTwice(under);
    expect(under.service.history()).toHaveLength(1);
    await under.service.sourceFileMapped(buildingId);
    const history = await under.settled(2);
    expect(history.find((entry) => entry.id !== settled?.id)).toMatchObject({ origin: 'on-mapped', sourceFiles: [{ id: told }] });
    await under.service.sourceFileMapped(buildingId);
    await checkTwice(under);
    expect(under.service.history()).toHaveLength(2);
  });

  it('asks for no passport when a file is processed again with the same elements, and for one when they change', async () => {
    const { buildingId } = await createBuilding(server, 'Ongewijzigd');
    const fileId = await importIfc(server, buildingId);
    const under = await started(path.join(scratch, 'state-unchanged'), { mappedSettleMs: 0 });
    await under.service.addTarget({
      connectionId: CONNECTION,
      subject: { kind: 'building', id: buildingId },
      folder: path.join(scratch, 'unchanged'),
      formats: ['pdf'],
      language: 'en',
      requestOnMapped: true,
    });
    await checkTwice(under);

    // Refined again with nothing changed: the file reaches Mapped anew (a new lastModifiedDate), with the same elements.
    const before = await fileOf(buildingId, fileId);
    expect((await server.request('POST', `/buildings/${buildingId}/files/${fileId}/setimporting`)).status).toBe(204);
    expect((await server.request('POST', `/buildings/${buildingId}/files/${fileId}/startrefinement`)).status).toBe(202);
    await until(async () => {
      const now = await fileOf(buildingId, fileId);
      return now.status === 3 && now.lastModifiedDate !== before.lastModifiedDate;
    }, 'the refinement to end');
    await checkTwice(under);
    await checkTwice(under);
    expect(under.service.history()).toEqual([]);

    // The same model uploaded again as a new version changes nothing either.
    await importIfc(server, buildingId, undefined, fileId);
    await checkTwice(under);
    expect(under.service.history()).toEqual([]);

    // Another model as its new version: other elements, one passport.
    await importIfc(server, buildingId, 'example.ifc', fileId);
    const [entry] = await under.settled(1);
    expect(entry).toMatchObject({ origin: 'on-mapped', state: 'downloaded', sourceFiles: [{ id: fileId }] });
    await checkTwice(under);
    expect(under.service.history()).toHaveLength(1);
  });

  it('requests the portfolio passport when a source file of any of its buildings reaches Mapped', async () => {
    const { portfolioId, buildingId } = await createBuilding(server, 'Wijk');
    await importIfc(server, buildingId);
    const under = await started(path.join(scratch, 'state-portfolio'), { mappedSettleMs: 0 });
    await under.service.addTarget({
      connectionId: CONNECTION,
      subject: { kind: 'portfolio', id: portfolioId },
      folder: path.join(scratch, 'wijk'),
      formats: ['pdf'],
      language: 'nl',
      requestOnMapped: true,
    });
    await checkTwice(under);
    expect(under.service.history()).toEqual([]);

    // A building added to the portfolio later counts as well.
    const added = await server.request<{ id: string }>('POST', '/buildings', { portfolioId, name: 'Wijk 2' });
    const file = await importIfc(server, added.json.id);
    const [entry] = await under.settled(1);
    expect(entry).toMatchObject({ origin: 'on-mapped', state: 'downloaded', sourceFiles: [{ id: file }] });
    const files = await server.request<PortfolioFileResponse[]>('GET', `/portfolios/${portfolioId}/files`);
    expect(files.json.map((each) => each.id)).toEqual([entry?.remoteFileId]);
    await checkTwice(under);
    expect(under.service.history()).toHaveLength(1);
  });
});
