// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { createAppI18n, type AppLocale } from '../../../../../renderer/i18n';
import type { CatalogueListItem, Distinction } from '../../../../../renderer/views/catalogues/catalogue-list';
import CatalogueRow from '../../../../../renderer/views/catalogues/CatalogueRow.vue';
import type { CatalogueKind } from '../../../../../renderer/stores/catalogues';

const plywood: CatalogueListItem = {
  id: 'a1b2c3d4-0000-4000-8000-000000000001',
  name: 'Plywood',
  names: { en: 'Plywood', nl: 'Triplex' },
  detail: 'wood',
  supplier: '',
  changed: false,
  local: false,
};

function row(options: { item?: Partial<CatalogueListItem>; distinction?: Distinction; kind?: CatalogueKind; locale?: AppLocale }) {
  return mount(CatalogueRow, {
    props: { item: { ...plywood, ...options.item }, distinction: options.distinction, kind: options.kind ?? 'materials' },
    global: { plugins: [createAppI18n(options.locale ?? 'en')] },
  });
}

const distinctionOf = (wrapper: ReturnType<typeof row>): string | null => {
  const found = wrapper.find('[data-testid="catalogue-row-distinction"]');
  return found.exists() ? found.text() : null;
};

describe('a row of a catalogue list', () => {
  it('shows the name, family and supplier, and nothing more for a name of its own', () => {
    const wrapper = row({ item: { supplier: 'Houthandel' } });
    const cells = wrapper.findAll('[role="cell"]').map((cell) => cell.text());
    expect(cells.slice(0, 3)).toEqual(['Plywood', 'wood', 'Houthandel']);
    expect(distinctionOf(wrapper)).toBeNull();
    expect(wrapper.find('[data-testid="catalogue-row-new"]').exists()).toBe(false);
  });

  it('says what tells it apart from items of the same name, in the user’s language', () => {
    expect(distinctionOf(row({ distinction: { kind: 'name', language: 'nl', text: 'Triplex' } }))).toBe('in Dutch: Triplex');
    expect(distinctionOf(row({ distinction: { kind: 'name', language: 'en', text: 'Plywood' }, locale: 'de' }))).toBe('auf Englisch: Plywood');
    expect(distinctionOf(row({ distinction: { kind: 'detail', text: 'wood' }, locale: 'nl' }))).toBe('familie wood');
    expect(distinctionOf(row({ distinction: { kind: 'detail', text: 'Quantity product' }, kind: 'products' }))).toBe('type Quantity product');
    expect(distinctionOf(row({ distinction: { kind: 'supplier', text: 'Sika' }, locale: 'fr' }))).toBe('de Sika');
    expect(distinctionOf(row({ distinction: { kind: 'id', text: 'a1b2c3d4' } }))).toBe('id a1b2c3d4');
  });

  it('marks an item not sent yet, or changed here, and opens on click and Enter', async () => {
    expect(row({ item: { local: true, changed: true } }).find('[data-testid="catalogue-row-new"]').text()).toBe('Not sent yet');
    const changed = row({ item: { changed: true } });
    expect(changed.find('[data-testid="catalogue-row-changed"]').text()).toBe('Changed here');
    await changed.trigger('click');
    await changed.trigger('keydown', { key: 'Enter' });
    expect(changed.emitted('open')).toHaveLength(2);
  });

  it('marks a name it shows in another language than the user’s, saying which', () => {
    const german = row({ locale: 'de' });
    const mark = german.find('[data-testid="language-mark"]');
    expect(german.find('.row__name').text()).toBe('Plywood');
    expect(mark.attributes('data-language')).toBe('en');
    expect(mark.attributes('title')).toBe('Name auf Englisch: Auf Deutsch gibt es keinen.');
    expect(row({ locale: 'en' }).find('[data-testid="language-mark"]').exists()).toBe(false);
  });
});
