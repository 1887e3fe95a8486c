/**
 * Adding files to a building, for its page: each file is judged by its name (a model or spreadsheet is a source file,
 * a PDF or image an information file, anything else is refused with the reason), a file named like one of the
 * building's source files becomes its new version once the user confirms, and the upload is started from the host's
 * dialog (Electron) or from the page's file (browser mode, and files dropped anywhere). Retrying a file that failed on
 * the server sends its bytes again where the host still has them, and asks for the file again where it has not.
 */
import { useDialog } from 'naive-ui';
import { ref, type Ref } from 'vue';
import { useI18n } from 'vue-i18n';
import { assertNever } from '../../../shared/api/enums';
import { MAX_UPLOAD_BYTES, type UploadEntry, type UploadTarget } from '../../../shared/uploads';
import { buttonTestId } from '../../components/test-id';
import { useUploadWords } from '../../components/use-upload-words';
import type { FileRow } from '../../db/schema';
import { useUploadsStore, type ChosenFile } from '../../stores/uploads';
import { isSourceName, uploadKindOf, type UploadKind } from './upload-kinds';
import type { ApiOutcome } from '../../api/outcome';
import { useFailureText } from '../../components/use-failure-text';

/** What the page gives: the building, its source files, the tags for new files and its two file inputs. */
export interface BuildingUploadsContext {
  buildingId: Ref<string>;
  buildingName: Ref<string>;
  sourceFiles: Ref<readonly FileRow[]>;
  tags: Ref<string[]>;
  openPicker(): void;
  openVersionPicker(): void;
}

/** A file to add, from the page or from the host's dialog. */
type Candidate = { name: string; size: number; start: (target: UploadTarget) => Promise<ApiOutcome<UploadEntry>> };

/** Adding files and new versions to a building; call from a component's setup. */
export function useBuildingUploads(context: BuildingUploadsContext) {
  const { t } = useI18n();
  const dialog = useDialog();
  const uploads = useUploadsStore();
  const { bytesText } = useUploadWords();
  const { failureLines } = useFailureText();
  /** Why files were not added, a line each; cleared with the next files. */
  const refusals = ref<string[]>([]);
  /** The source file the version input gives a new version, while it is open. */
  let versionOf: FileRow | null = null;

  function refusalText(name: string, kind: Extract<UploadKind, { kind: 'refused' }>, size: number): string {
    switch (kind.reason) {
      case 'unknown-type':
        return t('buildingFiles.upload.refused.unknownType', { name });
      case 'empty':
        return t('buildingFiles.upload.refused.empty', { name });
      case 'too-large':
        return t('buildingFiles.upload.refused.tooLarge', { name, size: bytesText(size), max: bytesText(MAX_UPLOAD_BYTES) });
      default:
        return assertNever(kind.reason, 'refusal');
    }
  }

  function confirmReplace(name: string): Promise<boolean> {
    return new Promise((resolve) => {
      dialog.warning({
        title: t('buildingFiles.upload.replaceTitle', { name }),
        content: t('buildingFiles.upload.replaceBody', { name }),
        positiveText: t('buildingFiles.upload.replaceConfirm'),
        negativeText: t('common.cancel'),
        positiveButtonProps: buttonTestId('upload-replace-confirm'),
        negativeButtonProps: buttonTestId('upload-replace-cancel'),
        onPositiveClick: () => resolve(true),
        onNegativeClick: () => resolve(false),
        onAfterLeave: () => resolve(false),
      });
    });
  }

  async function started(name: string, outcome: Promise<ApiOutcome<UploadEntry>>): Promise<boolean> {
    const result = await outcome;
    if (!result.ok) refusals.value = [...refusals.value, t('buildingFiles.upload.notStarted', { name }), ...failureLines(result.failure, 'building')];
    return result.ok;
  }

  /** Adds files one after another, each confirmed first when it would replace a source file. */
  async function addAll(candidates: readonly Candidate[]): Promise<void> {
    refusals.value = [];
    for (const candidate of candidates) {
      const kind = uploadKindOf(candidate.name, candidate.size);
      if (kind.kind === 'refused') {
        refusals.value = [...refusals.value, refusalText(candidate.name, kind, candidate.size)];
        continue;
      }
      const buildingId = context.buildingId.value;
      const same = kind.kind === 'source' ? context.sourceFiles.value.find((file) => file.fileName === candidate.name) : undefined;
      if (same === undefined) {
        const fileType = kind.kind === 'source' ? 0 : 1;
        await started(candidate.name, candidate.start({ kind: 'building-file', buildingId, fileType, tags: [...context.tags.value] }));
      } else if (await confirmReplace(candidate.name)) {
        await started(candidate.name, candidate.start({ kind: 'building-file', buildingId, fileType: 0, replaceFileId: same.id }));
      }
    }
  }

  const ofPage = (file: File): Candidate => ({ name: file.name, size: file.size, start: (target) => uploads.startFile(target, file) });
  const ofHost = (file: ChosenFile): Candidate => ({ name: file.fileName, size: file.size, start: (target) => uploads.startChosen(target, file) });

  /** Adds files of the page: dropped, or picked with the file input. */
  function addFiles(files: readonly File[]): Promise<void> {
    return addAll(files.map(ofPage));
  }

  /** Adds files the host chose: those of its dialog, and files opened with the app. */
  function addChosen(files: readonly ChosenFile[]): Promise<void> {
    return addAll(files.map(ofHost));
  }

  /** Asks the host's dialog for files, or opens the page's input where the host has none. */
  async function choose(): Promise<void> {
    if (!uploads.dialogAvailable) {
      context.openPicker();
      return;
    }
    const chosen = await uploads.choose('any', true, t('buildingFiles.upload.chooseTitle', { name: context.buildingName.value }));
    if (chosen.kind === 'unavailable') context.openPicker();
    else if (chosen.kind === 'failed') refusals.value = [chosen.message];
    else await addChosen(chosen.files);
  }

  async function startVersion(file: FileRow, candidate: Candidate): Promise<void> {
    refusals.value = [];
    const kind = uploadKindOf(candidate.name, candidate.size);
    if (kind.kind === 'refused') refusals.value = [refusalText(candidate.name, kind, candidate.size)];
    else if (!isSourceName(candidate.name)) refusals.value = [t('buildingFiles.upload.refused.notSource', { name: candidate.name })];
    else await started(candidate.name, candidate.start({ kind: 'building-file', buildingId: context.buildingId.value, fileType: 0, replaceFileId: file.id }));
  }

  /** Asks for a file to upload as a source file's new version. */
  async function chooseVersion(file: FileRow): Promise<void> {
    versionOf = file;
    if (!uploads.dialogAvailable) {
      context.openVersionPicker();
      return;
    }
    const title = t('buildingFiles.upload.versionTitle', { name: file.fileName ?? '' });
    const chosen = await uploads.choose('source', false, title);
    if (chosen.kind === 'unavailable') context.openVersionPicker();
    else if (chosen.kind === 'failed') refusals.value = [chosen.message];
    else if (chosen.files[0] !== undefined) await startVersion(file, ofHost(chosen.files[0]));
  }

  /** The version input's file. */
  async function addVersion(files: readonly File[]): Promise<void> {
    const file = versionOf;
    versionOf = null;
    if (file !== null && files[0] !== undefined) await startVersion(file, ofPage(files[0]));
  }

  /**
   * Uploads a file that failed on the server again: the bytes of its latest upload where the host still has them,
   * else the user chooses the file again. Answers whether the bytes went again.
   */
  async function retryFile(file: FileRow): Promise<boolean> {
    const latest = await uploads.latestOf(file.id);
    if (latest !== undefined) {
      const retried = await uploads.retry(latest.id);
      if (retried.ok && retried.value.state !== 'failed') return true;
    }
    await chooseVersion(file);
    return false;
  }

  /** Chooses the file of an upload whose content the host no longer has, for the same place. */
  async function chooseAgain(entry: UploadEntry): Promise<void> {
    const file = context.sourceFiles.value.find((each) => each.id === entry.remoteFileId);
    if (file !== undefined) await chooseVersion(file);
    else await choose();
  }

  return { refusals, addFiles, addChosen, choose, chooseVersion, addVersion, retryFile, chooseAgain };
}
