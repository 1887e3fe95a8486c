import { describe, expect, it } from 'vitest';
import { elementBodyForV21, elementFromV21, v21AnswerValue, v21RequestBody } from '../../../../shared/api/v21-elements';

describe('elements through v2.1', () => {
  it('send phase and classification for the lookups, and no name or materialId', () => {
    expect(
      elementBodyForV21({ id: 'a', name: 'Wall', materialId: '3fa85f64-5717-4562-b3fc-2c963f66afa6', phaseLookup: 'Nieuw', classificationLookup: '21.1', volume: 1 }),
    ).toEqual({ id: 'a', phase: 'Nieuw', classification: '21.1', volume: 1 });
    expect(elementBodyForV21({ id: 'a', phaseLookup: null })).toEqual({ id: 'a', phase: null });
    expect(elementBodyForV21({ id: 'a', phase: 'New' })).toEqual({ id: 'a', phase: 'New' });
  });

  it('read phase and classification of an answer as one-value lookups', () => {
    expect(elementFromV21({ id: 'a', phase: 'New', classification: '', volume: 1 })).toEqual({
      id: 'a',
      name: null,
      volume: 1,
      phaseLookup: ['New'],
      classificationLookup: [],
    });
    const v23Shaped = { id: 'a', phaseLookup: ['New'], classificationLookup: ['21'] };
    expect(elementFromV21(v23Shaped)).toBe(v23Shaped);
  });

  it('touch only element operations, and lists element by element', () => {
    expect(v21RequestBody('createBuilding', { name: 'x', phaseLookup: 'y' })).toEqual({ name: 'x', phaseLookup: 'y' });
    expect(v21RequestBody('replaceElement', { id: 'a', phaseLookup: 'y' })).toEqual({ id: 'a', phase: 'y' });
    expect(v21AnswerValue('listElements', [{ id: 'a', phase: 'x' }])).toEqual([{ id: 'a', name: null, phaseLookup: ['x'], classificationLookup: [] }]);
    expect(v21AnswerValue('getBuilding', { phase: 'x' })).toEqual({ phase: 'x' });
  });
});
