/**
 * How an element form writes its changes: `saving` while the write runs, then the saved message and the form is done;
 * or the reason the write failed, and the form stays as typed so the user can try again.
 */
import { useMessage } from 'naive-ui';
import { ref, type Ref } from 'vue';
import { useI18n } from 'vue-i18n';

/** The write of a form that calls `done` once its changes are written. */
export function useElementWrite(done: () => void): {
  saving: Readonly<Ref<boolean>>;
  write: (changes: () => Promise<unknown>, savedText: () => string) => Promise<void>;
} {
  const { t } = useI18n();
  const message = useMessage();
  const saving = ref(false);

  async function write(changes: () => Promise<unknown>, savedText: () => string): Promise<void> {
    saving.value = true;
    try {
      await changes();
      message.success(savedText());
      done();
    } catch (error) {
      message.error(t('element.saveFailed', { message: error instanceof Error ? error.message : String(error) }));
    } finally {
      saving.value = false;
    }
  }

  return { saving, write };
}
