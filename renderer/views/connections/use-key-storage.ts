/**
 * Storing a connection's key with the user's consent where the vault cannot encrypt: the first attempt asks the host
 * plainly; when it refuses with 'insecure-storage', the user reads the host's reason in a dialog and may agree, and
 * only then is the key stored with `allowInsecureStorage`.
 */
import { useDialog } from 'naive-ui';
import { useI18n } from 'vue-i18n';
import type { IpcError } from '../../../shared/ipc';
import { buttonTestId } from '../../components/test-id';
import { useConnectionsStore } from '../../stores/connections';

/** How storing a key ended. */
export type KeyStorageOutcome = { kind: 'stored' } | { kind: 'declined' } | { kind: 'failed'; error: IpcError };

/** Stores keys, asking for consent when needed; call from a component's setup (it uses the dialog provider). */
export function useKeyStorage() {
  const connections = useConnectionsStore();
  const dialog = useDialog();
  const { t } = useI18n();

  function askConsent(reason: string): Promise<boolean> {
    return new Promise((resolve) => {
      // Whatever closes the dialog first answers; closing it any other way than "Store anyway" is a no.
      dialog.warning({
        title: t('consent.title'),
        content: t('consent.body', { message: reason }),
        positiveText: t('consent.confirm'),
        negativeText: t('consent.decline'),
        positiveButtonProps: buttonTestId('consent-confirm'),
        negativeButtonProps: buttonTestId('consent-decline'),
        onPositiveClick: () => resolve(true),
        onNegativeClick: () => resolve(false),
        onClose: () => resolve(false),
        onMaskClick: () => resolve(false),
        onAfterLeave: () => resolve(false),
      });
    });
  }

  async function storeKey(connectionId: string, key: string): Promise<KeyStorageOutcome> {
    const first = await connections.setKey(connectionId, key);
    if (first.ok) return { kind: 'stored' };
    if (first.error.code !== 'insecure-storage') return { kind: 'failed', error: first.error };
    if (!(await askConsent(first.error.message))) return { kind: 'declined' };
    const second = await connections.setKey(connectionId, key, true);
    return second.ok ? { kind: 'stored' } : { kind: 'failed', error: second.error };
  }

  return { storeKey };
}
