import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChoiceRegistry, fileDialogFilters } from '../../../../electron/uploads/choices';

let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'cd-choices-'));
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('fileDialogFilters', () => {
  it('offers models and spreadsheets, documents and images, or both and anything', () => {
    expect(fileDialogFilters('source')).toEqual([{ name: 'Models and spreadsheets', extensions: ['ifc', 'xlsx', 'csv'] }]);
    expect(fileDialogFilters('information')[0]?.extensions).toEqual(expect.arrayContaining(['pdf', 'png', 'jpg', 'jpeg']));
    expect(fileDialogFilters('any').map((filter) => filter.name)).toEqual(['Models and spreadsheets', 'Documents and images', 'All files']);
  });
});

describe('ChoiceRegistry', () => {
  it('hands out an id per chosen file and knows its path by it; any other id is refused', async () => {
    const file = path.join(folder, 'model.ifc');
    await writeFile(file, 'ISO-10303-21;');
    const registry = new ChoiceRegistry();
    const [chosen] = await registry.register([file]);
    expect(chosen).toEqual({ choiceId: expect.any(String), fileName: 'model.ifc', size: 13 });
    expect(registry.get(chosen?.choiceId as string)).toEqual({ path: file, fileName: 'model.ifc', size: 13 });
    expect(() => registry.get(file)).toThrow(expect.objectContaining({ code: 'not-found' }));
  });

  it('refuses a path that is not a file', async () => {
    await expect(new ChoiceRegistry().register([folder])).rejects.toMatchObject({ code: 'invalid-request' });
    await expect(new ChoiceRegistry().register([path.join(folder, 'missing.ifc')])).rejects.toMatchObject({ code: 'invalid-request' });
  });
});
