import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isOpenedFileName, launchArgumentsOf, userDataDirOf } from '../../../electron/launch-arguments';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'launch-arguments-'));
  await writeFile(path.join(dir, 'model.ifc'), 'ISO-10303-21;');
  await writeFile(path.join(dir, 'Sheet.XLSX'), 'x');
  await writeFile(path.join(dir, 'rows.csv'), 'a;b');
  await writeFile(path.join(dir, 'notes.pdf'), '%PDF');
  await mkdir(path.join(dir, 'folder.ifc'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('isOpenedFileName', () => {
  it('takes .ifc, .xlsx and .csv in any case, nothing else', () => {
    expect(['a.ifc', 'b.XLSX', 'c.Csv'].map(isOpenedFileName)).toEqual([true, true, true]);
    expect(['a.pdf', 'ifc', 'a.ifc.tmp', 'a.xls'].map(isOpenedFileName)).toEqual([false, false, false, false]);
  });
});

describe('launchArgumentsOf', () => {
  it('reads nothing from a plain start', async () => {
    expect(await launchArgumentsOf(['/opt/Circularity Desk/circularity-desk'], dir)).toEqual({ files: [] });
  });

  it('reads --connect and --key-file, the key file made absolute against the working directory', async () => {
    const parsed = await launchArgumentsOf(['app', '--connect', 'https://api.example.org', '--key-file=key.txt'], dir);
    expect(parsed).toEqual({ connect: 'https://api.example.org', keyFile: path.join(dir, 'key.txt'), files: [] });
  });

  it('keeps the existing model and spreadsheet files, relative ones against the working directory', async () => {
    const parsed = await launchArgumentsOf(['app', 'model.ifc', path.join(dir, 'Sheet.XLSX'), './rows.csv'], dir);
    expect(parsed.files).toEqual([path.join(dir, 'model.ifc'), path.join(dir, 'Sheet.XLSX'), path.join(dir, 'rows.csv')]);
  });

  it('leaves out other files, missing files, folders and repeats', async () => {
    const parsed = await launchArgumentsOf(['app', 'notes.pdf', 'gone.ifc', 'folder.ifc', 'model.ifc', path.join(dir, 'model.ifc')], dir);
    expect(parsed.files).toEqual([path.join(dir, 'model.ifc')]);
  });

  it('reads a second instance’s command line among the switches Chromium adds, and its script path in development', async () => {
    const argv = [
      '/usr/lib/electron/electron',
      path.join(dir, 'dist', 'electron', 'main.cjs'),
      '--allow-file-access-from-files',
      '--original-process-start-time=13347771298341155',
      '--enable-features=WebRTCPipeWireCapturer',
      '--connect=https://desk.example.org',
      '--key-file',
      '/etc/desk/key',
      'model.ifc',
    ];
    expect(await launchArgumentsOf(argv, dir)).toEqual({
      connect: 'https://desk.example.org',
      keyFile: '/etc/desk/key',
      files: [path.join(dir, 'model.ifc')],
    });
  });

  it('never takes the program itself as a file to open', async () => {
    expect((await launchArgumentsOf([path.join(dir, 'model.ifc')], dir)).files).toEqual([]);
  });
});

describe('userDataDirOf', () => {
  it('reads --user-data as an absolute folder, in either spelling, and nothing without it', () => {
    expect(userDataDirOf(['electron', '.', '--user-data', 'profile'], dir)).toBe(path.join(dir, 'profile'));
    expect(userDataDirOf(['electron', '.', `--user-data=${path.join(dir, 'other')}`], '/')).toBe(path.join(dir, 'other'));
    expect(userDataDirOf(['electron', '.', '--user-data='], dir)).toBeUndefined();
    expect(userDataDirOf(['electron', '.', '--connect', 'https://desk.example.org'], dir)).toBeUndefined();
  });

  it('keeps the folder given to --user-data out of the files to open', async () => {
    expect((await launchArgumentsOf(['electron', '--user-data', 'model.ifc', 'rows.csv'], dir)).files).toEqual([path.join(dir, 'rows.csv')]);
  });
});
