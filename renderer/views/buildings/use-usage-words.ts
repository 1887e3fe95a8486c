/**
 * The platform's building usages in the user's language. Each text is a literal key (the i18n checks find unused and
 * missing keys).
 */
import { useI18n } from 'vue-i18n';
import { assertNever } from '../../../shared/api/enums';
import { isBuildingUsage, type BuildingUsage } from './building-choices';

export function useUsageWords() {
  const { t } = useI18n();

  function usageText(usage: BuildingUsage): string {
    switch (usage) {
      case 'Accomodation Lodging':
        return t('buildingChoices.usages.accommodationLodging');
      case 'Community Small Complex':
        return t('buildingChoices.usages.communitySmallComplex');
      case 'Community Large Complex':
        return t('buildingChoices.usages.communityLargeComplex');
      case 'Community Theatre':
        return t('buildingChoices.usages.communityTheatre');
      case 'Education MBO/ HBO/ WO':
        return t('buildingChoices.usages.higherEducation');
      case 'Secondary Education':
        return t('buildingChoices.usages.secondaryEducation');
      case 'Basic Education':
        return t('buildingChoices.usages.basicEducation');
      case 'Healthcare Carehome Row':
        return t('buildingChoices.usages.carehomeRow');
      case 'Healthcare Carehome Detached':
        return t('buildingChoices.usages.carehomeDetached');
      case 'Healthcare Carehome Appartments':
        return t('buildingChoices.usages.carehomeApartments');
      case 'Healthcare Carehome Gallery':
        return t('buildingChoices.usages.carehomeGallery');
      case 'Industry Business Building Small':
        return t('buildingChoices.usages.industrySmall');
      case 'Industry Business Building Large':
        return t('buildingChoices.usages.industryLarge');
      case 'Other':
        return t('buildingChoices.usages.other');
      case 'Jail':
        return t('buildingChoices.usages.jail');
      case 'Offices Small':
        return t('buildingChoices.usages.officesSmall');
      case 'Offices Large':
        return t('buildingChoices.usages.officesLarge');
      case 'Detached House':
        return t('buildingChoices.usages.detachedHouse');
      case 'Semi Detached':
        return t('buildingChoices.usages.semiDetached');
      case 'Terraced House':
        return t('buildingChoices.usages.terracedHouse');
      case 'Maisonette':
        return t('buildingChoices.usages.maisonette');
      case 'Gallery House':
        return t('buildingChoices.usages.galleryHouse');
      case 'Staircase Entrance Flat':
        return t('buildingChoices.usages.staircaseFlat');
      case 'Appartments':
        return t('buildingChoices.usages.apartments');
      case 'Corner House':
        return t('buildingChoices.usages.cornerHouse');
      case 'Sports Hall':
        return t('buildingChoices.usages.sportsHall');
      case 'Swimming Pool':
        return t('buildingChoices.usages.swimmingPool');
      case 'Indoor Shopping Center Unit':
        return t('buildingChoices.usages.indoorShoppingUnit');
      case 'Outdoor Shopping Center Unit':
        return t('buildingChoices.usages.outdoorShoppingUnit');
      case 'Shop Unit Large':
        return t('buildingChoices.usages.shopLarge');
      case 'Shop Unit Small':
        return t('buildingChoices.usages.shopSmall');
      default:
        return assertNever(usage, 'building usage');
    }
  }

  /** A stored usage as the user reads it: one of the platform's in the user's language, any other text as it is. */
  function storedUsageText(value: string): string {
    return isBuildingUsage(value) ? usageText(value) : value;
  }

  return { usageText, storedUsageText };
}
