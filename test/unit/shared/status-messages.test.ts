import { describe, expect, it } from 'vitest';
import { formatImportSummary, formatStatusMessage, parseStatusMessage, type StatusSentence } from '../../../shared/status-messages';

const report: StatusSentence = {
  kind: 'report-summary',
  counted: 78,
  elements: 80,
  active: true,
  mapped: 80,
  mappedByKeyword: 3,
  measured: 79,
  measuredFromGeometry: 0,
  layered: 78,
  layerFromNames: 2,
  layerFromClass: 5,
};

describe('status messages', () => {
  it('reads back every sentence it writes', () => {
    const messages: StatusSentence[][] = [
      [{ kind: 'created' }],
      [{ kind: 'waiting-for-import' }],
      [{ kind: 'importing' }],
      [{ kind: 'refining' }],
      [{ kind: 'mapping' }],
      [{ kind: 'passport-writing' }],
      [{ kind: 'passport-generated', count: 12, of: 'buildings' }],
      [{ kind: 'refinement-failed', reason: 'disk full. Try again: later' }],
      [{ kind: 'import-summary', imported: 80, rejected: 0, shown: [] }, report],
      [{ ...report, active: false, mappedByKeyword: 0, layerFromNames: 0 }],
      [
        {
          kind: 'import-summary',
          imported: 5,
          rejected: 25,
          shown: [
            { kind: 'sheet-row', sheet: 'Walls; east', row: 4, problems: [{ kind: 'no-id' }, { kind: 'negative', field: 'volume' }] },
            { kind: 'sheet-row', sheet: 'Walls', row: 9, problems: [{ kind: 'not-a-number', field: 'area', value: 'twelve, or so' }] },
            { kind: 'sheet-row', sheet: 'Floors', row: 2, problems: [{ kind: 'duplicate-id', id: 'W-1', firstSheet: 'Walls', firstRow: 3 }] },
            { kind: 'sheet-row', sheet: 'Floors', row: 5, problems: [{ kind: 'duplicate-id', id: 'F-2', firstSheet: null, firstRow: 4 }] },
            { kind: 'sheet-row', sheet: 'Floors', row: 6, problems: [{ kind: 'no-computed-value', field: 'weight', formula: 'A1*2' }] },
            { kind: 'text', text: "#412 IfcWall 'Wall 1': duplicate GlobalId 2O2Fr$t4X7Zf8NOew3FLOH (kept #118)" },
          ],
        },
        { kind: 'refinement-queued' },
      ],
    ];
    for (const sentences of messages) {
      expect(parseStatusMessage(formatStatusMessage(...sentences))).toEqual(sentences);
    }
  });

  it('writes the sentences the server has always written', () => {
    expect(formatStatusMessage(report)).toBe(
      '78 of 80 elements count in the circularity index: 80 mapped (3 by keyword), 79 with a volume or weight, ' +
        '78 with a building layer (2 from layer names, 5 inferred from the IFC class).',
    );
    expect(formatImportSummary(3, 2, ['sheet A row 2: no id', 'sheet A row 3: negative volume'])).toBe(
      '3 elements imported, 2 rejected: sheet A row 2: no id; sheet A row 3: negative volume.',
    );
  });

  it('reads nothing from a message worded otherwise, so the app shows it as it came', () => {
    expect(parseStatusMessage('Bezig met importeren.')).toBeNull();
    expect(parseStatusMessage('Uploaded. Something else.')).toBeNull();
    expect(parseStatusMessage('80 elements imported, 2 rejected: sheet A row 2: no id.')).toBeNull();
    expect(parseStatusMessage('')).toBeNull();
  });
});
