/** The passport palette, shared by the PDF layout and the charts so a table's swatch matches its chart. */
import { BuildingLevel } from '../../shared/api';

/** Colours of text, rules and accents. */
export const PALETTE = {
  primary: '#0E5A4F',
  primaryDark: '#0A4038',
  accent: '#3BA58B',
  tint: '#E8F3F0',
  track: '#E3ECE9',
  ink: '#1F2933',
  muted: '#5F6B7A',
  rule: '#D5DDE3',
  stripe: '#F5F8F8',
  negative: '#C0504D',
  phase: ['#3BA58B', '#7FB9D9', '#E3A44C'] as const,
} as const;

const LAYER_COLOURS: Record<string, string> = {
  [BuildingLevel.Site.id]: '#8D6E63',
  [BuildingLevel.Structure.id]: '#0E5A4F',
  [BuildingLevel.Skin.id]: '#3BA58B',
  [BuildingLevel.Services.id]: '#E3A44C',
  [BuildingLevel.SpacePlan.id]: '#5C7AEA',
  [BuildingLevel.Stuff.id]: '#C65D7B',
  [BuildingLevel.Unknown.id]: '#A0AEC0',
};

const FAMILY_COLOURS: Record<string, string> = {
  stone: '#A39382',
  metal: '#546E7A',
  wood: '#B07A47',
  plastic: '#5C7AEA',
  glass: '#4FB3BF',
  organic: '#7CB342',
  unknown: '#B8C2CC',
};

/** The colour of a building level by its id (grey for an unknown id). */
export function layerColour(id: string): string {
  return LAYER_COLOURS[id.toLowerCase()] ?? '#A0AEC0';
}

/** The colour of a material family by its name (grey for an unknown family). */
export function familyColour(family: string): string {
  return FAMILY_COLOURS[family.trim().toLowerCase()] ?? '#B8C2CC';
}

/** `BuildingLevel` ids in the order passports list the layers. */
export const LEVEL_ORDER: readonly string[] = Object.values(BuildingLevel).map((level) => level.id);
