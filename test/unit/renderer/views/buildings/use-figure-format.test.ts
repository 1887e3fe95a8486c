// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { defineComponent, h } from 'vue';
import { createAppI18n, type AppLocale } from '../../../../../renderer/i18n';
import { useFigureFormat } from '../../../../../renderer/views/buildings/use-figure-format';

function ticksIn(locale: AppLocale, values: readonly number[]): string[] {
  let ticks: string[] = [];
  const Probe = defineComponent(() => {
    const { euroCompact } = useFigureFormat();
    ticks = values.map(euroCompact);
    return () => h('span');
  });
  mount(Probe, { global: { plugins: [createAppI18n(locale)] } }).unmount();
  return ticks.map((tick) => tick.replace(/\s/g, ' '));
}

describe('the figures’ formats', () => {
  it('write a chart axis’s euros short in every language, so its ticks do not run into each other', () => {
    const values = [-180_000, -150_000, 0, 2_500_000];
    expect(ticksIn('en', values)).toEqual(['-€180K', '-€150K', '€0', '€2.5M']);
    expect(ticksIn('nl', values)).toEqual(['-€ 180K', '-€ 150K', '€ 0', '€ 2,5 mln.']);
    expect(ticksIn('fr', values)).toEqual(['-180 k €', '-150 k €', '0 €', '2,5 M €']);
    expect(ticksIn('it', values)).toEqual(['-180K €', '-150K €', '0 €', '2,5 Mln €']);
    expect(ticksIn('es', values)).toEqual(['-180 mil €', '-150 mil €', '0 €', '2,5 M €']);
    // German has no short form for thousands: the ticks stay whole, without cents, and the axis drops those that overlap.
    expect(ticksIn('de', values)).toEqual(['-180.000 €', '-150.000 €', '0 €', '2,5 Mio. €']);
  });
});
