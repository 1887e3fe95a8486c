import { describe, expect, it } from 'vitest';
import { Phase } from '../../../../../shared/api/enums';
import type { ElementRow } from '../../../../../renderer/db/schema';
import { classificationInferred, phaseInferred, shownClassificationMatch, shownPhaseMatch } from '../../../../../renderer/views/files/inferred-values';
import { elementColumn } from '../../../../../renderer/views/files/element-columns';
import { element } from './file-fixtures';

const EXISTING = { id: Phase.Existing.id, name: Phase.Existing.name };
const OPENINGS = { id: '60000000-0000-4000-8000-000000000001', code: '32', name: 'Binnenwandopeningen' };

function row(fields: Partial<ElementRow>): ElementRow {
  return { ...element('E1'), ...fields } as ElementRow;
}

describe('inferred values', () => {
  it('are the matches of an element that names no phase and no code of its classification', () => {
    const inferred = row({ phaseMatch: EXISTING, classificationMatch: OPENINGS, phaseLookup: [], classificationLookup: null });
    expect([phaseInferred(inferred), classificationInferred(inferred)]).toEqual([true, true]);
    const given = row({ phaseMatch: EXISTING, classificationMatch: OPENINGS, phaseLookup: ['Bestaand'], classificationLookup: ['32.1 Binnenwandopeningen'] });
    expect([phaseInferred(given), classificationInferred(given)]).toEqual([false, false]);
    expect(classificationInferred(row({ classificationMatch: OPENINGS, classificationLookup: ['Wand'] }))).toBe(true);
    expect([phaseInferred(row({})), classificationInferred(row({}))]).toEqual([false, false]);
  });

  it('give way to a phase or classification changed here, which the grid shows until the file is refined', () => {
    const server = row({ phaseMatch: EXISTING, classificationMatch: OPENINGS, phaseLookup: [], classificationLookup: [] });
    const changed = row({ ...server, phaseLookup: ['Nieuw'], classificationLookup: ['21.1'], base: server } as Partial<ElementRow>);
    expect([shownPhaseMatch(changed), shownClassificationMatch(changed)]).toEqual([null, null]);
    expect([phaseInferred(changed), classificationInferred(changed)]).toEqual([false, false]);
    expect([elementColumn('phase').text(changed), elementColumn('classification').text(changed)]).toEqual(['Nieuw', '21.1']);
    expect([elementColumn('phase').text(server), elementColumn('classification').text(server)]).toEqual(['Existing', '32 Binnenwandopeningen']);
    expect([elementColumn('phase').inferred(server), elementColumn('name').inferred(server)]).toEqual([true, false]);
  });
});
