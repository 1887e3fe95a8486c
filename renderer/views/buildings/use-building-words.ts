/**
 * The words of the building screens for every value the code names: form fields and groups, refused values, building
 * levels, material families, validation figures and permission levels. Each text is a literal key (the i18n checks
 * find unused and missing keys).
 */
import { computed, type ComputedRef } from 'vue';
import { useI18n } from 'vue-i18n';
import { assertNever, PermissionLevel, type BuildingLevelName } from '../../../shared/api/enums';
import type { BuildingFieldError, BuildingFormField, BuildingFormGroup } from './building-form';
import { KNOWN_FAMILIES, type KnownFamily, type ValidationField } from './dashboard-figures';

/** The texts of the building screens in the current language. */
export function useBuildingWords() {
  const { t } = useI18n();

  const fieldLabels: ComputedRef<Record<BuildingFormField, string>> = computed(() => ({
    name: t('buildings.form.fields.name'),
    portfolioId: t('buildings.form.fields.portfolioId'),
    completionDate: t('buildings.form.fields.completionDate'),
    lastRenovationDate: t('buildings.form.fields.lastRenovationDate'),
    cadastralDesignation: t('buildings.form.fields.cadastralDesignation'),
    parcelnumber: t('buildings.form.fields.parcelnumber'),
    cadastralArea: t('buildings.form.fields.cadastralArea'),
    publicLawRestriction: t('buildings.form.fields.publicLawRestriction'),
    addressStreet: t('buildings.form.fields.addressStreet'),
    addressHousenumber: t('buildings.form.fields.addressHousenumber'),
    addressHousenumberAddition: t('buildings.form.fields.addressHousenumberAddition'),
    addressZipcode: t('buildings.form.fields.addressZipcode'),
    addressCity: t('buildings.form.fields.addressCity'),
    addressCountry: t('buildings.form.fields.addressCountry'),
    buildingUsage: t('buildings.form.fields.buildingUsage'),
    grossSurfaceArea: t('buildings.form.fields.grossSurfaceArea'),
    energyLabel: t('buildings.form.fields.energyLabel'),
    energyPerformanceCoefficient: t('buildings.form.fields.energyPerformanceCoefficient'),
    energyIndex: t('buildings.form.fields.energyIndex'),
    expectedLifespan: t('buildings.form.fields.expectedLifespan'),
    expectedLifespanStructure: t('buildings.form.fields.expectedLifespanStructure'),
    expectedLifespanSkin: t('buildings.form.fields.expectedLifespanSkin'),
    expectedLifespanServices: t('buildings.form.fields.expectedLifespanServices'),
    expectedLifespanSpacePlan: t('buildings.form.fields.expectedLifespanSpacePlan'),
    expectedLifespanStuff: t('buildings.form.fields.expectedLifespanStuff'),
    breeamLabel: t('buildings.form.fields.breeamLabel'),
    leedLabel: t('buildings.form.fields.leedLabel'),
    gprLabel: t('buildings.form.fields.gprLabel'),
    mpgLabel: t('buildings.form.fields.mpgLabel'),
    wellScoreBuilding: t('buildings.form.fields.wellScoreBuilding'),
    wellScoreInterior: t('buildings.form.fields.wellScoreInterior'),
    wellScoreCoreAndShell: t('buildings.form.fields.wellScoreCoreAndShell'),
  }));

  const groupLabels: ComputedRef<Record<BuildingFormGroup, string>> = computed(() => ({
    identity: t('buildings.form.groups.identity'),
    address: t('buildings.form.groups.address'),
    usage: t('buildings.form.groups.usage'),
    lifespans: t('buildings.form.groups.lifespans'),
    labels: t('buildings.form.groups.labels'),
  }));

  function fieldErrorText(error: BuildingFieldError | undefined): string | undefined {
    switch (error) {
      case undefined:
        return undefined;
      case 'required':
        return t('buildings.form.errors.required');
      case 'not-whole':
        return t('buildings.form.errors.notWhole');
      case 'out-of-range':
        return t('buildings.form.errors.outOfRange');
      case 'negative':
        return t('buildings.form.errors.negative');
      case 'not-finite':
        return t('buildings.form.errors.notFinite');
      case 'before-completion':
        return t('buildings.form.errors.beforeCompletion');
      case 'under-a-year':
        return t('buildings.form.errors.underAYear');
      case 'not-an-energy-label':
        return t('buildings.form.errors.notAnEnergyLabel');
      case 'not-a-country':
        return t('buildings.form.errors.notACountry');
      default:
        return assertNever(error, 'building field error');
    }
  }

  const levelLabels: ComputedRef<Record<BuildingLevelName, string>> = computed(() => ({
    Site: t('buildings.levels.Site'),
    Structure: t('buildings.levels.Structure'),
    Skin: t('buildings.levels.Skin'),
    Services: t('buildings.levels.Services'),
    SpacePlan: t('buildings.levels.SpacePlan'),
    Stuff: t('buildings.levels.Stuff'),
    Unknown: t('buildings.levels.Unknown'),
  }));

  const familyLabels: ComputedRef<Record<KnownFamily, string>> = computed(() => ({
    stone: t('buildings.financial.family.stone'),
    glass: t('buildings.financial.family.glass'),
    wood: t('buildings.financial.family.wood'),
    plastic: t('buildings.financial.family.plastic'),
    organic: t('buildings.financial.family.organic'),
    metal: t('buildings.financial.family.metal'),
  }));

  /** A material family's words; a family the platform has not named shows under the server's name. */
  function familyText(family: string): string {
    const known = KNOWN_FAMILIES.find((name) => name === family.toLowerCase());
    return known === undefined ? family : familyLabels.value[known];
  }

  /** A building level's words; a level the spec does not know shows under the server's label. */
  function levelText(level: BuildingLevelName | null, serverLabel: string): string {
    return level === null ? serverLabel : levelLabels.value[level];
  }

  const validationLabels: ComputedRef<Record<ValidationField, string>> = computed(() => ({
    percentageElementsMappedByNumber: t('buildings.validation.fields.percentageElementsMappedByNumber'),
    percentageElementsMappedByVolume: t('buildings.validation.fields.percentageElementsMappedByVolume'),
    percentageMaterialSpecifiedByNumber: t('buildings.validation.fields.percentageMaterialSpecifiedByNumber'),
    percentageMaterialSpecifiedByVolume: t('buildings.validation.fields.percentageMaterialSpecifiedByVolume'),
    percentageClassificationAssignedByNumber: t('buildings.validation.fields.percentageClassificationAssignedByNumber'),
    percentageClassificationAssignedByVolume: t('buildings.validation.fields.percentageClassificationAssignedByVolume'),
    percentageElementsWithKnownMassByNumber: t('buildings.validation.fields.percentageElementsWithKnownMassByNumber'),
    percentageBaseQuantitiesAssignedByNumber: t('buildings.validation.fields.percentageBaseQuantitiesAssignedByNumber'),
    percentageVolumeBaseQuantityAssignedByNumber: t('buildings.validation.fields.percentageVolumeBaseQuantityAssignedByNumber'),
    percentageAreaBaseQuantityAssignedByNumber: t('buildings.validation.fields.percentageAreaBaseQuantityAssignedByNumber'),
    percentageLengthBaseQuantityAssignedByNumber: t('buildings.validation.fields.percentageLengthBaseQuantityAssignedByNumber'),
  }));

  /** A permission level's words; a level the spec does not know shows as its number. */
  function levelName(level: number): string {
    const known = level as PermissionLevel;
    switch (known) {
      case PermissionLevel.None:
        return t('buildings.access.levels.None');
      case PermissionLevel.Read:
        return t('buildings.access.levels.Read');
      case PermissionLevel.Write:
        return t('buildings.access.levels.Write');
      case PermissionLevel.Administrator:
        return t('buildings.access.levels.Administrator');
      default:
        return Object.values(PermissionLevel).includes(known) ? assertNever(known, 'permission level') : String(level);
    }
  }

  return { fieldLabels, groupLabels, fieldErrorText, levelText, familyText, validationLabels, levelName };
}
