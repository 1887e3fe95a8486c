/**
 * The charts of the app: vue-echarts over only the parts of ECharts the screens use, registered once here, and the
 * look every chart shares. The SVG renderer draws them: the charts are small (tens of bars at most), and SVG keeps
 * their text sharp at every zoom level and readable by assistive tools.
 */
import { BarChart, GaugeChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { use } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { computed, type ComputedRef } from 'vue';
import VChart from 'vue-echarts';
import { useUiStore, type Theme } from '../stores/ui';

use([SVGRenderer, GaugeChart, BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent]);

/** The chart component, with the parts above registered. */
export { VChart };

/** Colours a chart draws with, per theme: text, grid lines, and the series' own. */
export interface ChartPalette {
  text: string;
  mutedText: string;
  gridLine: string;
  track: string;
  primary: string;
  positive: string;
  negative: string;
  warning: string;
}

const PALETTES: Record<Theme, ChartPalette> = {
  light: {
    text: '#1f2329',
    mutedText: '#646a73',
    gridLine: '#e5e6eb',
    track: '#eef0f3',
    primary: '#18a058',
    positive: '#18a058',
    negative: '#d03050',
    warning: '#f0a020',
  },
  dark: {
    text: '#e8eaed',
    mutedText: '#a6adb7',
    gridLine: '#3a3d44',
    track: '#2c2f36',
    primary: '#63e2b7',
    positive: '#63e2b7',
    negative: '#e88080',
    warning: '#f2c97d',
  },
};

/** The palette of a theme. */
export function chartPalette(theme: Theme): ChartPalette {
  return PALETTES[theme];
}

/** The ECharts theme name and palette of the theme the app shows; charts follow a switch at once. */
export function useChartTheme(): { name: ComputedRef<'dark' | undefined>; palette: ComputedRef<ChartPalette> } {
  const ui = useUiStore();
  return {
    name: computed(() => (ui.theme === 'dark' ? 'dark' : undefined)),
    palette: computed(() => chartPalette(ui.theme)),
  };
}
