// @vitest-environment happy-dom
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { NMessageProvider } from 'naive-ui';
import { afterEach, describe, expect, it } from 'vitest';
import { defineComponent, h } from 'vue';
import { createAppI18n } from '../../../../../renderer/i18n';
import { useElementWrite } from '../../../../../renderer/views/files/use-element-write';

let mounted: VueWrapper | undefined;
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
});

/** A form with the write, and what it saw: whether it was saving while the changes were written, and `done`. */
function formWriting(changes: () => Promise<unknown>) {
  const seen = { savingDuringWrite: false, done: 0, write: undefined as undefined | (() => Promise<void>) };
  const Form = defineComponent(() => {
    const { saving, write } = useElementWrite(() => {
      seen.done += 1;
    });
    seen.write = () =>
      write(
        async () => {
          seen.savingDuringWrite = saving.value;
          await changes();
        },
        () => 'Written.',
      );
    return () => h('p', { 'data-saving': String(saving.value) });
  });
  mounted = mount(() => h(NMessageProvider, () => h(Form)), { global: { plugins: [createAppI18n('en')] } });
  return seen;
}

describe("an element form's write", () => {
  it('is saving while the changes are written, then says so and the form is done', async () => {
    const seen = formWriting(async () => {});
    await seen.write?.();
    await flushPromises();
    expect(seen.savingDuringWrite).toBe(true);
    expect(seen.done).toBe(1);
    expect(document.body.textContent).toContain('Written.');
    expect(mounted?.find('p').attributes('data-saving')).toBe('false');
  });

  it('says why the changes were not written, and the form is not done', async () => {
    const seen = formWriting(async () => {
      throw new Error('disk full');
    });
    await seen.write?.();
    await flushPromises();
    expect(seen.done).toBe(0);
    expect(document.body.textContent).toContain('disk full');
    expect(document.body.textContent).not.toContain('Written.');
    expect(mounted?.find('p').attributes('data-saving')).toBe('false');
  });
});
