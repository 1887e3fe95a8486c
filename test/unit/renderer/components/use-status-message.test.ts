// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { defineComponent, h } from 'vue';
import { formatStatusMessage } from '../../../../shared/status-messages';
import { createAppI18n, type AppLocale } from '../../../../renderer/i18n';
import { useStatusMessage } from '../../../../renderer/components/use-status-message';

function said(locale: AppLocale, message: string, active?: boolean): string {
  const Host = defineComponent(() => {
    const statusMessage = useStatusMessage();
    return () => h('p', statusMessage(message, active));
  });
  const wrapper = mount(Host, { global: { plugins: [createAppI18n(locale)] } });
  const text = wrapper.text();
  wrapper.unmount();
  return text;
}

const mapped = formatStatusMessage(
  { kind: 'import-summary', imported: 80, rejected: 0, shown: [] },
  {
    kind: 'report-summary',
    counted: 14,
    elements: 34,
    active: true,
    notCounted: [
      { reason: 'no-mass', elements: 20 },
      { reason: 'no-building-layer', elements: 1 },
    ],
    mappedByKeyword: 0,
    measuredFromGeometry: 12,
    layerFromNames: 0,
    layerFromClass: 0,
  },
);

const rejected = formatStatusMessage(
  {
    kind: 'import-summary',
    imported: 1200,
    rejected: 22,
    shown: [{ kind: 'sheet-row', sheet: 'Wanden', row: 7, problems: [{ kind: 'no-id' }, { kind: 'negative', field: 'weight' }] }],
  },
  { kind: 'refinement-queued' },
);

describe("a file's status message", () => {
  it('is said in the Dutch and German of the app when the server wrote the English of the spec', () => {
    expect(said('nl', mapped)).toBe(
      '80 elementen geïmporteerd. 14 van 34 elementen tellen mee in de circulariteitsindex: ' +
        '20 hebben geen massa (hun materiaal heeft geen soortelijk gewicht), 1 heeft geen bouwlaag. Aangenomen: 12 met hoeveelheden uit de geometrie.',
    );
    expect(said('de', rejected)).toBe(
      '1.200 Elemente importiert, 22 abgelehnt: Blatt Wanden Zeile 7: keine ID, negativer Wert bei Gewicht; und 21 weitere. ' +
        'Verfeinerung in der Warteschlange.',
    );
  });

  it('reads as the server wrote it in English', () => {
    expect(said('en', mapped)).toBe(mapped);
    expect(said('en', rejected)).toBe(rejected.replace('1200', '1,200'));
  });

  it('says whether the elements count as the file is now, whatever it was when the summary was written', () => {
    expect(said('en', mapped, false)).toBe(
      '80 elements imported. 14 of 34 elements will count in the circularity index once the file is active: ' +
        '20 have no mass (their material has no specific weight), 1 has no building layer. Assumed: 12 with quantities from geometry.',
    );
    expect(said('de', mapped, true)).toContain('14 von 34 Elementen zählen im Zirkularitätsindex: 20 haben keine Masse (ihr Material hat keine Dichte), 1 hat keine Gebäudeschicht.');
  });

  it('shows a message worded otherwise as it came', () => {
    expect(said('nl', 'Queued behind 3 other files.')).toBe('Queued behind 3 other files.');
  });
});
