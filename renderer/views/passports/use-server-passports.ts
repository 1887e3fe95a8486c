/**
 * What can be done with a passport made on the server, wherever it is listed: a building's opens or is saved, a
 * portfolio's opens; its state in words. A refusal or failure is said in a message.
 */
import { useMessage } from 'naive-ui';
import { ref, type Ref } from 'vue';
import { useI18n } from 'vue-i18n';
import { assertNever } from '../../../shared/api/enums';
import type { ApiOutcome } from '../../api/outcome';
import { useFailureText } from '../../components/use-failure-text';
import { useStateTags, type StateTag } from '../../components/use-state-tags';
import { useBuildingFilesStore, type FileRef } from '../../stores/building-files';
import type { DownloadOutcome } from '../../stores/file-download';
import { usePortfolioFilesStore } from '../../stores/portfolio-files';
import type { FileRow } from '../../db/schema';
import type { BuildingPassportState } from './passport-history';
import type { PortfolioPassport } from './portfolio-passports';

/** The actions on server-made passports, and the id of the file one of them works on. */
export function useServerPassports(): {
  busy: Ref<string | null>;
  stateTag: (state: BuildingPassportState) => StateTag;
  openBuildingPassport: (file: FileRow) => Promise<void>;
  saveBuildingPassport: (file: FileRow) => Promise<void>;
  openPortfolioPassport: (passport: PortfolioPassport) => Promise<void>;
} {
  const { t } = useI18n();
  const files = useBuildingFilesStore();
  const portfolioFiles = usePortfolioFilesStore();
  const message = useMessage();
  const { failureLines } = useFailureText();
  const { passportStateTag } = useStateTags();
  const busy = ref<string | null>(null);

  function stateTag(state: BuildingPassportState): StateTag {
    switch (state) {
      case 'generating':
      case 'failed':
        return passportStateTag(state);
      case 'ready':
        return { text: t('passports.state.ready'), type: 'success' };
      default:
        return assertNever(state, 'server passport state');
    }
  }

  async function run(fileId: string, action: () => Promise<ApiOutcome<DownloadOutcome>>, source: 'building' | 'portfolio', name: string): Promise<void> {
    busy.value = fileId;
    try {
      const outcome = await action();
      if (!outcome.ok) message.warning(failureLines(outcome.failure, source).join(' '));
      else if (outcome.value.kind === 'saved') message.success(t('buildingFiles.saved', { name, path: outcome.value.path }));
    } finally {
      busy.value = null;
    }
  }

  function refOf(file: FileRow): FileRef {
    return { buildingId: file.buildingId, fileId: file.id, fileName: file.fileName ?? file.id };
  }

  return {
    busy,
    stateTag,
    openBuildingPassport: (file) => run(file.id, () => files.open(refOf(file)), 'building', refOf(file).fileName),
    saveBuildingPassport: (file) => run(file.id, () => files.download(refOf(file)), 'building', refOf(file).fileName),
    openPortfolioPassport: ({ file }) => run(file.id, () => portfolioFiles.download(file.portfolioId, file), 'portfolio', file.fileName ?? file.id),
  };
}
