/** Sample passport data for the passport tests: the CI worked example's figures (test-vectors §1) on a Dutch office. */
import { Resvg } from '@resvg/resvg-js';
import { BuildingLevel as L, Phase } from '../../../../shared/api';
import type {
  BuildingPassportData,
  PassportElementRow,
  PassportLanguage,
  PortfolioPassportData,
} from '../../../../server/passports/passport-data';

/** A small PNG of a building façade, drawn with resvg, to stand in for a building photo. */
export function samplePhoto(width = 800, height = 450): Buffer {
  const windows: string[] = [];
  for (let floor = 0; floor < 6; floor++) {
    for (let column = 0; column < 9; column++) {
      windows.push(`<rect x="${190 + column * 48}" y="${110 + floor * 46}" width="30" height="30" fill="#CFE8F3" stroke="#8FB8C9"/>`);
    }
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 800 450">
    <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#7FB9D9"/><stop offset="1" stop-color="#E6F2F7"/></linearGradient></defs>
    <rect width="800" height="450" fill="url(#sky)"/>
    <rect x="170" y="90" width="460" height="300" fill="#B07A47"/>
    <rect x="150" y="78" width="500" height="16" fill="#0E5A4F"/>
    ${windows.join('')}
    <rect x="370" y="330" width="60" height="60" fill="#0E5A4F"/>
    <rect y="390" width="800" height="60" fill="#7CB342"/>
    <circle cx="90" cy="360" r="45" fill="#3BA58B"/><rect x="85" y="380" width="10" height="30" fill="#6D4C41"/>
  </svg>`;
  return new Resvg(svg).render().asPng();
}

/** A deterministic element row. */
export function sampleElement(index: number): PassportElementRow {
  const layers = [L.Structure, L.Skin, L.Services, L.SpacePlan, L.Stuff];
  const layer = layers[index % layers.length] ?? L.Structure;
  const phases = [Phase.New, Phase.Existing, Phase.Demolition];
  const phase = phases[index % phases.length] ?? Phase.New;
  return {
    id: `3Xk$${index.toString(36).padStart(6, '0')}`,
    name: `Wand ${index}`,
    elementClass: index % 2 === 0 ? 'IfcWall' : 'IfcSlab',
    typeName: index % 2 === 0 ? 'Basic Wall: Beton 200' : 'Floor: Kanaalplaat 260',
    materialName: index % 7 === 0 ? null : 'Beton C30/37',
    mappedName: index % 7 === 0 ? null : 'Beton, gewapend',
    classificationCode: index % 11 === 0 ? null : '21.12',
    brandLayer: { id: layer.id, name: layer.label },
    phase: { id: phase.id, name: phase.name },
    floor: `0${index % 6}`,
    volume: 1 + (index % 13) * 0.25,
    area: 5 + (index % 5),
    length: 4.5,
    width: 0.2,
    height: 3,
    weight: null,
    mass: index % 7 === 0 ? null : (1 + (index % 13) * 0.25) * 2400,
    notCounted: index % 7 === 0 ? 'no-material' : null,
  };
}

/** An async generator of `count` element rows, yielding to the event loop now and then as a database cursor would. */
export async function* sampleElements(count: number, onYield?: (index: number) => void): AsyncGenerator<PassportElementRow> {
  for (let index = 0; index < count; index++) {
    if (index % 250 === 0) await new Promise((resolve) => setImmediate(resolve));
    onYield?.(index);
    yield sampleElement(index);
  }
}

/** A building passport's data in `language`: the CI worked example's figures on an Amsterdam office. */
export function sampleBuildingData(language: PassportLanguage, options: { image?: boolean; elements?: number } = {}): BuildingPassportData {
  return {
    language,
    generatedAt: new Date('2025-05-12T09:30:00Z'),
    building: {
      name: 'Paviljoen De Groene Rivier',
      addressStreet: 'Gustav Mahlerlaan',
      addressHousenumber: '10',
      addressHousenumberAddition: 'A',
      addressZipcode: '1082 PP',
      addressCity: 'Amsterdam',
      addressCountry: 'NL',
      cadastralDesignation: 'Amsterdam R 1234',
      cadastralArea: 2450,
      parcelnumber: '1234',
      buildingUsage: 'Kantoor',
      grossSurfaceArea: 6240.5,
      completionDate: '2019-06-28T00:00:00Z',
      lastRenovationDate: null,
      energyLabel: 'A++',
      energyPerformanceCoefficient: 0.42,
      energyIndex: null,
      expectedLifespan: 75,
      expectedLifespanStructure: 50,
      expectedLifespanSkin: 20,
      expectedLifespanServices: 15,
      expectedLifespanSpacePlan: 10,
      expectedLifespanStuff: null,
      breeamLabel: 4,
      gprLabel: 7.5,
      mpgLabel: 0.45,
      leedLabel: null,
    },
    image: options.image === false ? null : { bytes: samplePhoto(), contentType: 'image/png' },
    circular: {
      circularityConstructionPhase: 0.6226,
      circularityUsagePhase: 0.8541,
      circularityEndOfLifePhase: 0.4669,
      ciScoreBuilding: 0.4863,
      correctionUnknownMaterials: 0.96,
      correctionUnknownBrandLayer: 1,
      madasterCiScore: 0.4668,
    },
    financial: {
      currentValue: 3179.35,
      currentValuePerMaterialFamily: { stone: -3138.53, metal: 5512.4, wood: 1130.3, glass: -99.82, plastic: -210, organic: -15 },
      ncwValue: -2528.13,
      ncwValuePerBuildingLevel: Object.values(L).map((level) => ({
        id: level.id,
        label: level.label,
        value: level.id === L.Structure.id ? -2443.92 : level.id === L.Skin.id ? -84.21 : 0,
      })),
    },
    validation: {
      percentageClassificationAssignedByNumber: 0.9091,
      percentageClassificationAssignedByVolume: 0.9412,
      percentageVolumeBaseQuantityAssignedByNumber: 1,
      percentageAreaBaseQuantityAssignedByNumber: 0.874,
      percentageLengthBaseQuantityAssignedByNumber: 0.5,
      percentageBaseQuantitiesAssignedByNumber: 1,
      percentageMaterialSpecifiedByNumber: 0.8571,
      percentageMaterialSpecifiedByVolume: 0.88,
      percentageElementsWithKnownMassByNumber: 0.8571,
      percentageElementsMappedByNumber: 0.8571,
      percentageElementsMappedByVolume: 0.8802,
    },
    counting: {
      elements: 1061,
      volume: 2340,
      counted: { elements: 1037, volume: 2310 },
      notCounted: [
        { reason: 'no-material', elements: 20, volume: 28, withoutVolume: 0 },
        { reason: 'no-mass', elements: 4, volume: 2, withoutVolume: 0 },
      ],
    },
    layers: [
      { id: L.SpacePlan.id, label: 'Space plan', mass: 1_510_000, elementCount: 400 },
      { id: L.Structure.id, label: 'Structure', mass: 1_040_000, elementCount: 320 },
      { id: L.Skin.id, label: 'Skin', mass: 1_010_000, elementCount: 210 },
      { id: L.Services.id, label: 'Services', mass: 4_440, elementCount: 95 },
      { id: L.Stuff.id, label: 'Stuff', mass: 2_500, elementCount: 12 },
    ],
    families: [
      { family: 'stone', mass: 2_450_000, value: -3138.53 },
      { family: 'metal', mass: 120_000, value: 5512.4 },
      { family: 'wood', mass: 610_000, value: 1130.3 },
      { family: 'glass', mass: 38_000, value: -99.82 },
      { family: 'plastic', mass: 45_000, value: -210 },
      { family: 'organic', mass: 6_000, value: -15 },
      { family: 'unknown', mass: 297_940, value: 0 },
    ],
    elements: sampleElements(options.elements ?? 25),
  };
}

/** A portfolio passport's data with three buildings, one of them without any counted element. */
export function samplePortfolioData(language: PassportLanguage): PortfolioPassportData {
  const base = sampleBuildingData(language, { image: false, elements: 0 });
  return {
    language,
    generatedAt: new Date('2025-05-12T09:30:00Z'),
    portfolio: { name: 'Woningcorporatie Rivierenland', logo: { bytes: samplePhoto(300, 170), contentType: 'image/png' } },
    buildings: [
      { name: 'Paviljoen De Groene Rivier', city: 'Amsterdam', grossSurfaceArea: 6240.5, mass: 3_566_940, currentValue: 3179.35, circular: base.circular, validation: base.validation },
      {
        name: 'Schoolgebouw ’t Kompas',
        city: 'Utrecht',
        grossSurfaceArea: 3100,
        mass: 1_950_000,
        currentValue: -1250.5,
        circular: { ...base.circular, ciScoreBuilding: 0.3125, madasterCiScore: 0.2813, correctionUnknownMaterials: 0.9 },
        validation: { ...base.validation, percentageMaterialSpecifiedByNumber: 0.9, percentageElementsMappedByNumber: 0.9 },
      },
      {
        name: 'Bedrijfshal Noord',
        city: null,
        grossSurfaceArea: null,
        mass: null,
        currentValue: null,
        circular: {
          circularityConstructionPhase: null,
          circularityUsagePhase: null,
          circularityEndOfLifePhase: null,
          ciScoreBuilding: null,
          correctionUnknownMaterials: 0,
          correctionUnknownBrandLayer: 0.5,
          madasterCiScore: null,
        },
        validation: Object.fromEntries(Object.keys(base.validation).map((key) => [key, 0])) as PortfolioPassportData['buildings'][number]['validation'],
      },
    ],
  };
}
