import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  absolutePathOf,
  buildingFolderOf,
  fileKindOf,
  isIgnoredName,
  isIgnoredRelativePath,
  relativeKeyOf,
} from '../../../../electron/dropfolders/file-rules';

const ALL_SOURCES = { fileTypes: ['.ifc', '.xlsx', '.csv'] as ('.ifc' | '.xlsx' | '.csv')[], informationFiles: false };

describe('isIgnoredName', () => {
  it.each([
    '~$Elements.xlsx',
    '.~lock.Elements.xlsx#',
    'export.tmp',
    'model.ifc.part',
    'model.ifc.crdownload',
    'model.ifc.partial',
    'model.ifc~',
    'model.ifc.bak',
    '.DS_Store',
    'Thumbs.db',
    'desktop.ini',
    '.circularity-desk',
    '.hidden.ifc',
  ])('ignores %s', (name) => {
    expect(isIgnoredName(name)).toBe(true);
  });

  it.each(['model.ifc', 'a~b.ifc', 'Elements.xlsx', 'Project.0001.rvt', 'temp model.ifc'])('keeps %s', (name) => {
    expect(isIgnoredName(name)).toBe(false);
  });
});

describe('isIgnoredRelativePath', () => {
  it('hides everything in a hidden or temporary folder', () => {
    expect(isIgnoredRelativePath('.circularity-desk/ledger.sqlite')).toBe(true);
    expect(isIgnoredRelativePath('Building A/.git/config')).toBe(true);
    expect(isIgnoredRelativePath('Building A/model.ifc')).toBe(false);
  });
});

describe('fileKindOf', () => {
  it('takes the source types the mapping chose, whatever the case of the extension', () => {
    expect(fileKindOf('MODEL.IFC', ALL_SOURCES)).toBe('source');
    expect(fileKindOf('sub/elements.csv', ALL_SOURCES)).toBe('source');
    expect(fileKindOf('elements.xlsx', { fileTypes: ['.ifc'], informationFiles: false })).toBeUndefined();
    expect(fileKindOf('Project.0001.rvt', ALL_SOURCES)).toBeUndefined();
    expect(fileKindOf('~$elements.xlsx', ALL_SOURCES)).toBeUndefined();
  });

  it('takes PDFs and images as information files only when the mapping says so', () => {
    expect(fileKindOf('survey.pdf', ALL_SOURCES)).toBeUndefined();
    expect(fileKindOf('survey.pdf', { ...ALL_SOURCES, informationFiles: true })).toBe('information');
    expect(fileKindOf('photo.JPG', { ...ALL_SOURCES, informationFiles: true })).toBe('information');
    expect(fileKindOf('notes.txt', { ...ALL_SOURCES, informationFiles: true })).toBeUndefined();
  });
});

describe('paths', () => {
  it('keys a file by its path below the folder, with forward slashes', () => {
    const folder = path.resolve('drop');
    expect(relativeKeyOf(folder, path.join(folder, 'Building A', 'model.ifc'))).toBe('Building A/model.ifc');
    expect(relativeKeyOf(folder, folder)).toBeUndefined();
    expect(relativeKeyOf(folder, path.resolve('elsewhere', 'model.ifc'))).toBeUndefined();
    expect(absolutePathOf(folder, 'Building A/model.ifc')).toBe(path.join(folder, 'Building A', 'model.ifc'));
  });

  it('names the first-level subfolder as the building folder of a portfolio mapping', () => {
    expect(buildingFolderOf('Building A/model.ifc')).toBe('Building A');
    expect(buildingFolderOf('Building A/exports/model.ifc')).toBe('Building A');
    expect(buildingFolderOf('model.ifc')).toBeUndefined();
  });
});
