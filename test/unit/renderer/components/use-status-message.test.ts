// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { defineComponent, h } from 'vue';
import { formatStatusMessage } from '../../../../shared/status-messages';
import { createAppI18n, type AppLocale } from '../../../../renderer/i18n';
import { useStatusMessage } from '../../../../renderer/components/use-status-message';

function said(locale: AppLocale, message: string): string {
  const Host = defineComponent(() => {
    const statusMessage = useStatusMessage();
    return () => h('p', statusMessage(message));
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
    counted: 80,
    elements: 80,
    active: true,
    mapped: 80,
    mappedByKeyword: 0,
    measured: 80,
    measuredFromGeometry: 12,
    layered: 80,
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
      '80 elementen geïmporteerd. 80 van 80 elementen tellen mee in de circulariteitsindex: 80 gekoppeld, ' +
        '80 met een volume of gewicht (12 uit de geometrie), 80 met een bouwlaag.',
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

  it('shows a message worded otherwise as it came', () => {
    expect(said('nl', 'Queued behind 3 other files.')).toBe('Queued behind 3 other files.');
  });
});
