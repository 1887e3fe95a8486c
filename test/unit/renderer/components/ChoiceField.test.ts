// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import ChoiceField from '../../../../renderer/components/ChoiceField.vue';
import { createAppI18n } from '../../../../renderer/i18n';

function field(text: string | null) {
  return mount(ChoiceField, {
    props: { text, none: 'No classification', action: 'Classify', testId: 'element-classification' },
    global: { plugins: [createAppI18n('en')] },
  });
}

describe('ChoiceField', () => {
  it('shows a long choice whole, with the same text as its tooltip, and the word for none when there is none', () => {
    const long = '32.31 Binnenwandopeningen; deuren, draaiend, met kozijn en toebehoren';
    const chosen = field(long).get('[data-testid="element-classification-text"]');
    expect([chosen.text(), chosen.attributes('title')]).toEqual([long, long]);
    const none = field(null).get('[data-testid="element-classification-text"]');
    expect([none.text(), none.attributes('title'), none.classes()]).toEqual(['No classification', 'No classification', ['choice__text', 'choice__text--none']]);
  });
});
