/**
 * What the building search also looks at: a building's country and usage as the app shows them in the user's language,
 * so "Niederlande" finds a building stored with the code NL, and "Büro" one stored as "Offices Small".
 */
import { useI18n } from 'vue-i18n';
import { countryText } from './building-choices';
import type { ShownTexts } from './building-list';
import { useUsageWords } from './use-usage-words';

export function useBuildingShownTexts(): ShownTexts {
  const { locale } = useI18n();
  const { storedUsageText } = useUsageWords();
  return (building) => {
    const texts: string[] = [];
    if (building.addressCountry) texts.push(countryText(building.addressCountry, locale.value));
    if (building.buildingUsage) texts.push(storedUsageText(building.buildingUsage));
    return texts;
  };
}
