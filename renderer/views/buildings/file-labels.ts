/**
 * The words for a building file's type and status, for every value the spec defines. Another server may answer values
 * the spec does not know: those show as their number, while a value of the spec left out of a switch is a compile
 * error (`assertNever`).
 */
import { useI18n } from 'vue-i18n';
import { assertNever, BuildingFileStatuses, BuildingFileType } from '../../../shared/api/enums';

/** How a status looks: done, at work, failed, or unknown. */
export function fileStatusTone(status: number): 'success' | 'warning' | 'error' | 'default' {
  if (status === BuildingFileStatuses.Mapped) return 'success';
  if (status === BuildingFileStatuses.Error || status === BuildingFileStatuses.UnknownImportFile) return 'error';
  return (Object.values(BuildingFileStatuses) as number[]).includes(status) ? 'warning' : 'default';
}

/** The texts of file statuses and types in the current language. */
export function useFileLabels(): { statusText: (status: number) => string; typeText: (type: number) => string } {
  const { t } = useI18n();

  function statusText(status: number): string {
    const known = status as BuildingFileStatuses;
    switch (known) {
      case BuildingFileStatuses.Error:
        return t('fileStatus.Error');
      case BuildingFileStatuses.Uploaded:
        return t('fileStatus.Uploaded');
      case BuildingFileStatuses.Refined:
        return t('fileStatus.Refined');
      case BuildingFileStatuses.Mapped:
        return t('fileStatus.Mapped');
      case BuildingFileStatuses.Refining:
        return t('fileStatus.Refining');
      case BuildingFileStatuses.Mapping:
        return t('fileStatus.Mapping');
      case BuildingFileStatuses.Creating:
        return t('fileStatus.Creating');
      case BuildingFileStatuses.Importing:
        return t('fileStatus.Importing');
      case BuildingFileStatuses.Imported:
        return t('fileStatus.Imported');
      case BuildingFileStatuses.UnknownImportFile:
        return t('fileStatus.UnknownImportFile');
      default:
        return Object.values(BuildingFileStatuses).includes(known) ? assertNever(known, 'file status') : String(status);
    }
  }

  function typeText(type: number): string {
    const known = type as BuildingFileType;
    switch (known) {
      case BuildingFileType.Source:
        return t('fileType.Source');
      case BuildingFileType.Information:
        return t('fileType.Information');
      case BuildingFileType.PassportPdf:
        return t('fileType.PassportPdf');
      case BuildingFileType.PassportExcel:
        return t('fileType.PassportExcel');
      default:
        return Object.values(BuildingFileType).includes(known) ? assertNever(known, 'file type') : String(type);
    }
  }

  return { statusText, typeText };
}
