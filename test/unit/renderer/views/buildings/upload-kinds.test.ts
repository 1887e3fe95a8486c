import { describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../../../../../shared/uploads';
import { isSourceName, uploadKindOf } from '../../../../../renderer/views/buildings/upload-kinds';

describe('what a file added to a building becomes', () => {
  it('is a source file for a model or spreadsheet and an information file for a PDF or image, whatever the case of its extension', () => {
    expect(['a.ifc', 'B.IFC', 'c.xlsx', 'd.csv'].map((name) => uploadKindOf(name, 1).kind)).toEqual(['source', 'source', 'source', 'source']);
    expect(['a.pdf', 'b.PNG', 'c.jpg', 'd.jpeg', 'e.tiff'].map((name) => uploadKindOf(name, 1).kind)).toEqual(Array(5).fill('information'));
  });

  it('is refused for another type, no extension, an empty file or one over the server’s limit', () => {
    expect(uploadKindOf('notes.txt', 1)).toEqual({ kind: 'refused', reason: 'unknown-type' });
    expect(uploadKindOf('ifc', 1)).toEqual({ kind: 'refused', reason: 'unknown-type' });
    expect(uploadKindOf('.ifc', 1)).toEqual({ kind: 'refused', reason: 'unknown-type' });
    expect(uploadKindOf('model.ifc', 0)).toEqual({ kind: 'refused', reason: 'empty' });
    expect(uploadKindOf('model.ifc', MAX_UPLOAD_BYTES)).toEqual({ kind: 'source' });
    expect(uploadKindOf('model.ifc', MAX_UPLOAD_BYTES + 1)).toEqual({ kind: 'refused', reason: 'too-large' });
    expect([isSourceName('x.csv'), isSourceName('x.pdf')]).toEqual([true, false]);
  });
});
