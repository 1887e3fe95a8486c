import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DownloadResult, QueuedClient } from '../../../../electron/http/queued-client';
import { localDate } from '../../../../electron/passports/passport-names';
import type { BuildingFileResponse, PortfolioFileResponse } from '../../../../shared/api/schemas';
import {
  CONNECTION,
  createBuilding,
  importIfc,
  queuedClient,
  scratchFolder,
  startPassportServer,
  startService,
  until,
  type PassportServer,
  type ServiceUnderTest,
} from './harness';

let server: PassportServer;
let scratch: string;
const running: ServiceUnderTest[] = [];

beforeAll(async () => {
  server = await startPassportServer();
  scratch = await scratchFolder('cd-passports-');
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

/** The local date of a passport file's generation, as its file name carries it. */
async function passportDate(buildingId: string, fileId: string): Promise<string> {
  const file = await server.request<BuildingFileResponse>('GET', `/buildings/${buildingId}/files/${fileId}`);
  return localDate(new Date(file.json.lastModifiedDate));
}

async function passportFiles(buildingId: string): Promise<BuildingFileResponse[]> {
  const files = await server.request<BuildingFileResponse[]>('GET', `/buildings/${buildingId}/files`);
  return files.json.filter((file) => file.type === 1000 || file.type === 1001);
}

describe('passports of a building', () => {
  it('saves a requested PDF and Excel passport into the folder, named after the building and the date', async () => {
    const { buildingId } = await createBuilding(server, 'Kantoor Noord');
    await importIfc(server, buildingId);
    const folder = path.join(scratch, 'kantoor', 'passports');
    const { service, states, settled } = await started(path.join(scratch, 'state-1'));
    const target = await service.addTarget({
      connectionId: CONNECTION,
      subject: { kind: 'building', id: buildingId },
      folder,
      formats: ['pdf', 'xlsx'],
      language: 'nl',
      requestOnMapped: false,
    });
    const requested = await service.request(target.id);
    expect(requested.map((entry) => [entry.format, entry.state, entry.language, entry.origin])).toEqual([
      ['pdf', 'requested', 'nl', 'request'],
      ['xlsx', 'requested', 'nl', 'request'],
    ]);

    const history = await settled(2);
    const pdf = history.find((entry) => entry.format === 'pdf');
    const xlsx = history.find((entry) => entry.format === 'xlsx');
    expect(pdf?.state).toBe('downloaded');
    expect(xlsx?.state).toBe('downloaded');
    const pdfName = `Kantoor Noord - passport - ${await passportDate(buildingId, pdf?.remoteFileId ?? '')}.pdf`;
    const xlsxName = `Kantoor Noord - passport - ${await passportDate(buildingId, xlsx?.remoteFileId ?? '')}.xlsx`;
    expect(pdf?.filePath).toBe(path.join(folder, pdfName));
    expect(xlsx?.filePath).toBe(path.join(folder, xlsxName));
    expect((await readdir(folder)).sort()).toEqual([pdfName, xlsxName].sort());

    const pdfBytes = await readFile(path.join(folder, pdfName));
    expect(pdfBytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdfBytes.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
    expect(pdf?.bytes).toBe(pdfBytes.length);
    const xlsxBytes = await readFile(path.join(folder, xlsxName));
    expect(xlsxBytes.subarray(0, 2).toString('latin1')).toBe('PK');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsxBytes as unknown as ArrayBuffer);
    // The Dutch sheet names show that the language reached the server.
    expect(workbook.worksheets[0]?.name).toBe('Samenvatting');
    expect(workbook.worksheets.length).toBeGreaterThan(1);

    // The server holds exactly the two passports that were asked for.
    expect((await passportFiles(buildingId)).map((file) => file.id).sort()).toEqual([pdf?.remoteFileId, xlsx?.remoteFileId].sort());
    for (const entry of [pdf, xlsx]) {
      expect(states().get(entry?.id ?? '')).toEqual(['requested', 'generating', 'downloading', 'downloaded']);
    }
    expect(service.targets()).toEqual([
      expect.objectContaining({ id: target.id, name: 'Kantoor Noord', folder, lastError: null, lastCheckedAt: expect.any(String) }),
    ]);
  });

  it('never downloads a passport twice, also after a restart and after the file was moved away', async () => {
    const { buildingId } = await createBuilding(server, 'Huis aan de Gracht');
    await importIfc(server, buildingId);
    const folder = path.join(scratch, 'gracht');
    const stateDir = path.join(scratch, 'state-2');
    const first = await started(stateDir);
    const target = await first.service.addTarget({
      connectionId: CONNECTION,
      subject: { kind: 'building', id: buildingId },
      folder,
      formats: ['pdf'],
      language: 'en',
      requestOnMapped: false,
    });
    await first.service.request(target.id);
    const [saved] = await first.settled(1);
    expect(saved?.state).toBe('downloaded');
    await first.service.checkNow();
    await first.service.checkNow();
    expect(await readdir(folder)).toEqual([path.basename(saved?.filePath ?? '')]);
    await first.close();
    running.splice(running.indexOf(first), 1);

    // The user moves the passport elsewhere; it is not fetched again.
    await rm(saved?.filePath ?? '');
    const second = await started(stateDir);
    await second.service.checkNow();
    await second.service.checkNow();
    expect(await readdir(folder)).toEqual([]);
    expect(second.service.history()).toEqual([saved]);
    expect(second.events.filter((event) => event.type === 'entry-changed')).toEqual([]);

    // A passport someone else makes now is new to the target and is saved, numbered beside nothing.
    const made = await server.request('POST', `/buildings/${buildingId}/exportpassport`, undefined, { 'accept-language': 'fr' });
    expect(made.status).toBe(202);
    const history = await second.settled(2);
    const found = history.find((entry) => entry.origin === 'found');
    expect(found).toMatchObject({ state: 'downloaded', language: null, format: 'pdf' });
    expect(await readdir(folder)).toEqual([path.basename(found?.filePath ?? '')]);
  });

  it('remembers what it saved beyond the history it keeps', async () => {
    const { buildingId } = await createBuilding(server, 'Kort Geheugen');
    await importIfc(server, buildingId);
    const folder = path.join(scratch, 'geheugen');
    const under = await started(path.join(scratch, 'state-ledger'), { historyLimit: 0 });
    const target = await under.service.addTarget({
      connectionId: CONNECTION,
      subject: { kind: 'building', id: buildingId },
      folder,
      formats: ['pdf'],
      language: 'en',
      requestOnMapped: false,
    });
    const [requested] = await under.service.request(target.id);
    await until(() => under.states().get(requested?.id ?? '')?.at(-1) === 'downloaded', 'the passport to be saved');
    expect(under.service.history()).toEqual([]);
    await under.service.checkNow();
    await under.service.checkNow();
    expect(await readdir(folder)).toHaveLength(1);
    expect(under.states().size).toBe(1);
  });

  it('leaves passports made before the target alone and saves one made elsewhere afterwards', async () => {
    const { buildingId } = await createBuilding(server, 'Oude Passport');
    await importIfc(server, buildingId);
    await server.request('POST', `/buildings/${buildingId}/exportpassport`);
    await until(async () => (await passportFiles(buildingId)).every((file) => file.status === 1), 'the earlier passport');
    const folder = path.join(scratch, 'oud');
    const { service, settled } = await started(path.join(scratch, 'state-3'));
    const target = await service.addTarget({
      connectionId: CONNECTION,
      subject: { kind: 'building', id: buildingId },
      folder,
      formats: ['pdf', 'xlsx'],
      language: 'de',
      requestOnMapped: false,
    });
    await service.checkNow();
    await service.checkNow();
    expect(service.history()).toEqual([]);

    await server.request('POST', `/buildings/${buildingId}/exportexcelpassport`, undefined, { 'accept-language': 'de' });
    const [found] = await settled(1);
    expect(found).toMatchObject({ targetId: target.id, origin: 'found', format: 'xlsx', state: 'downloaded' });
    expect(await readdir(folder)).toEqual([path.basename(found?.filePath ?? '')]);
  });

  it('asks for a fresh download address when the signed one expired', async () => {
    const { buildingId } = await createBuilding(server, 'Verlopen Link');
    await importIfc(server, buildingId);
    const client = queuedClient(server);
    const answers: DownloadResult['kind'][] = [];
    const statuses: number[] = [];
    // Time passes on the server between handing out the address and its use: 20 minutes, more than its 15.
    const slow: QueuedClient = {
      ...client,
      download: async (url, destination, options) => {
        if (answers.length === 0) server.clockOffsetMs += 20 * 60_000;
        const result = await client.download(url, destination, options);
        answers.push(result.kind);
        if (result.kind === 'problem') statuses.push(result.status);
        return result;
      },
    };
    const { service, settled, close } = await started(path.join(scratch, 'state-4'), { clientFor: () => slow });
    try {
      const target = await service.addTarget({
        connectionId: CONNECTION,
        subject: { kind: 'building', id: buildingId },
        folder: path.join(scratch, 'verlopen'),
        formats: ['pdf'],
        language: 'en',
        requestOnMapped: false,
      });
      await service.request(target.id);
      const [entry] = await settled(1);
      expect(entry?.state).toBe('downloaded');
      expect(answers).toEqual(['problem', 'ok']);
      expect(statuses).toEqual([403]);
      expect((await readFile(entry?.filePath ?? '')).subarray(0, 4).toString('latin1')).toBe('%PDF');
    } finally {
      await close();
      running.pop();
      await client.close();
      server.clockOffsetMs = 0;
    }
  });
});

describe('passports of a portfolio', () => {
  it('saves a requested portfolio passport under the portfolio name', async () => {
    const { portfolioId, buildingId } = await createBuilding(server, 'Campus: Oost/West');
    await importIfc(server, buildingId);
    const folder = path.join(scratch, 'campus');
    const { service, settled } = await started(path.join(scratch, 'state-5'));
    const draft = {
      connectionId: CONNECTION,
      subject: { kind: 'portfolio' as const, id: portfolioId },
      folder,
      formats: ['pdf' as const],
      language: 'it' as const,
      requestOnMapped: false,
    };
    await expect(service.addTarget({ ...draft, formats: ['pdf', 'xlsx'] })).rejects.toMatchObject({ code: 'invalid-request' });
    await expect(service.addTarget({ ...draft, folder: 'relative/folder' })).rejects.toMatchObject({ code: 'invalid-request' });
    const target = await service.addTarget(draft);
    await service.request(target.id);
    const [entry] = await settled(1);
    expect(entry).toMatchObject({ state: 'downloaded', format: 'pdf', subject: { kind: 'portfolio', id: portfolioId } });
    const files = await server.request<PortfolioFileResponse[]>('GET', `/portfolios/${portfolioId}/files`);
    const remote = files.json.find((file) => file.id === entry?.remoteFileId);
    const name = `Campus_ Oost_West portfolio - passport - ${localDate(new Date(remote?.lastModifiedDate ?? ''))}.pdf`;
    expect(await readdir(folder)).toEqual([name]);
    expect((await readFile(path.join(folder, name))).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });
});
