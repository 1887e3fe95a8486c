import { describe, expect, it } from 'vitest';
import {
  formatImportSummary,
  formatStatusMessage,
  parseStatusMessage,
  withFileActive,
  withReportSummary,
  type StatusSentence,
} from '../../../shared/status-messages';

const report: StatusSentence = {
  kind: 'report-summary',
  counted: 14,
  elements: 80,
  active: true,
  notCounted: [
    { reason: 'no-material', elements: 2 },
    { reason: 'no-quantity', elements: 1 },
    { reason: 'no-mass', elements: 60 },
    { reason: 'no-building-layer', elements: 2 },
    { reason: 'no-circular-data', elements: 1 },
  ],
  mappedByKeyword: 3,
  measuredFromGeometry: 0,
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
      [{ ...report, counted: 80, notCounted: [], mappedByKeyword: 0, layerFromNames: 0, layerFromClass: 0 }, { kind: 'refinement-queued' }],
      [{ ...report, notCounted: [{ reason: 'no-mass', elements: 1 }], counted: 79 }],
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

  it('writes the sentences the server writes, naming why the elements that do not count do not', () => {
    expect(formatStatusMessage(report)).toBe(
      '14 of 80 elements count in the circularity index: 2 have no material, 1 has no volume or weight, ' +
        '60 have no mass (their material has no specific weight), 2 have no building layer, 1 has no circular data. ' +
        'Assumed: 3 mapped by keyword, 2 with a building layer from layer names, 5 with a building layer inferred from the IFC class.',
    );
    expect(formatStatusMessage({ ...report, counted: 79, notCounted: [{ reason: 'no-mass', elements: 1 }], mappedByKeyword: 0, layerFromNames: 0, layerFromClass: 0 })).toBe(
      '79 of 80 elements count in the circularity index: 1 has no mass (its material has no specific weight).',
    );
    expect(formatStatusMessage({ ...report, counted: 80, notCounted: [], active: false, mappedByKeyword: 0, layerFromNames: 0, layerFromClass: 0 })).toBe(
      '80 of 80 elements will count in the circularity index once the file is active.',
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
    // The summary of earlier versions, which said how many had each thing and not what the others lacked.
    expect(parseStatusMessage('78 of 80 elements count in the circularity index: 80 mapped (3 by keyword), 79 with a volume or weight, 78 with a building layer.')).toBeNull();
    expect(parseStatusMessage('7 of 8 elements count in the circularity index: 1 has no roof.')).toBeNull();
  });

  it('puts a new summary in place of the old one after the import’s line, and says whether an activated file counts', () => {
    const imported: StatusSentence = { kind: 'import-summary', imported: 80, rejected: 0, shown: [] };
    const message = formatStatusMessage(imported, report);
    const recounted = withReportSummary(message, { ...report, counted: 74, notCounted: [{ reason: 'no-mass', elements: 6 }] });
    expect(parseStatusMessage(recounted)).toEqual([imported, { ...report, counted: 74, notCounted: [{ reason: 'no-mass', elements: 6 }] }]);
    expect(withReportSummary(null, report)).toBe(formatStatusMessage(report));
    expect(withFileActive(message, false)).toBe(formatStatusMessage(imported, { ...report, active: false }));
    expect(withFileActive('Refinement queued.', true)).toBe('Refinement queued.');
    expect(withFileActive(null, true)).toBeNull();
  });
});
