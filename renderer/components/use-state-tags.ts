/**
 * How the states of drop folder files and passports are shown, on their own screens and on the Activity screen alike:
 * each state's words and the colour of its tag.
 */
import { useI18n } from 'vue-i18n';
import { assertNever } from '../../shared/api/enums';
import type { LedgerState } from '../../shared/dropfolders';
import type { PassportState } from '../../shared/passports';

/** The colours of naive-ui's tags. */
export type TagType = 'default' | 'info' | 'success' | 'error' | 'warning';

/** A state's words and tag colour. */
export interface StateTag {
  text: string;
  type: TagType;
}

/** The tags of file and passport states; call from a component's setup. */
export function useStateTags() {
  const { t } = useI18n();

  function ledgerStateTag(state: LedgerState): StateTag {
    switch (state) {
      case 'detected':
        return { text: t('dropFolders.state.detected'), type: 'default' };
      case 'hashing':
        return { text: t('dropFolders.state.hashing'), type: 'info' };
      case 'uploading':
        return { text: t('dropFolders.state.uploading'), type: 'info' };
      case 'processing':
        return { text: t('dropFolders.state.processing'), type: 'warning' };
      case 'mapped':
        return { text: t('dropFolders.state.mapped'), type: 'success' };
      case 'stored':
        return { text: t('dropFolders.state.stored'), type: 'success' };
      case 'failed':
        return { text: t('dropFolders.state.failed'), type: 'error' };
      default:
        return assertNever(state, 'ledger state');
    }
  }

  function passportStateTag(state: PassportState): StateTag {
    switch (state) {
      case 'requested':
        return { text: t('passports.state.requested'), type: 'default' };
      case 'generating':
        return { text: t('passports.state.generating'), type: 'warning' };
      case 'downloading':
        return { text: t('passports.state.downloading'), type: 'info' };
      case 'downloaded':
        return { text: t('passports.state.downloaded'), type: 'success' };
      case 'failed':
        return { text: t('passports.state.failed'), type: 'error' };
      default:
        return assertNever(state, 'passport state');
    }
  }

  return { ledgerStateTag, passportStateTag };
}
