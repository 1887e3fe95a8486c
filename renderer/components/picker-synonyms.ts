/**
 * What users search the pickers for that the lists do not name: a building part ("door", "Tür", "deur"). In the
 * catalogue picker they mean the materials such a part is commonly made of; in the classification picker the NL-SfB
 * classes of that part, whose descriptions are Dutch compounds ("buitenwandopeningen; gevuld met deuren") that an
 * English, German or French word does not find. Each language has a small table of part words, kept here and nowhere
 * else; a part's materials are named by word starts of their names in the six languages (and by their material family
 * where the whole family fits), so own materials named in one language are found too.
 *
 * To add a word: put it, in lower case without accents, in its language's table under the part it names; to add a
 * part, give it its materials in `PART_MATERIALS`, its classes in `PART_CLASSES` and its words in every language.
 */
import type { AppLocale } from '../i18n';

/** The building parts the picker understands. */
type BuildingPart = 'door' | 'window' | 'wall' | 'floor' | 'roof' | 'insulation' | 'pipe' | 'stair' | 'ceiling' | 'beam' | 'column' | 'foundation';

/** Word starts of materials in the six languages (folded), by material; `wood`, `metal`, … also name a family. */
const MATERIAL_WORDS = {
  wood: ['wood', 'hout', 'holz', 'bois', 'legno', 'madera', 'timber', 'plywood', 'multiplex', 'mdf', 'osb'],
  steel: ['steel', 'staal', 'stahl', 'acier', 'acciaio', 'acero'],
  aluminium: ['alumin', 'allumin'],
  glass: ['glass', 'glas', 'verre', 'vetro', 'vidrio', 'glazing', 'beglazing'],
  concrete: ['concrete', 'beton', 'calcestruzzo', 'hormigon'],
  brick: ['brick', 'baksteen', 'metselwerk', 'masonry', 'ziegel', 'brique', 'mattone', 'ladrillo', 'lime sandstone', 'kalkzandsteen'],
  plaster: ['plaster', 'gips', 'gypsum', 'platre', 'gesso', 'yeso'],
  tile: ['tile', 'tegel', 'dakpan', 'fliese', 'carrelage', 'tuile', 'piastrella', 'tegola', 'baldosa', 'teja', 'slate', 'leisteen'],
  insulation: ['wool', 'wol', 'wolle', 'laine', 'lana', 'eps', 'xps', 'pir', 'pur', 'polystyr', 'resol', 'foam', 'isolatie'],
  plastic: ['pvc', 'hdpe', 'ldpe', 'polyethyl', 'polyetheen', 'pp polyprop'],
  copper: ['copper', 'koper', 'kupfer', 'cuivre', 'rame', 'cobre'],
  zinc: ['zinc', 'zink', 'zinco'],
  bitumen: ['bitumen', 'epdm', 'bitume'],
  floorCovering: ['laminate', 'laminaat', 'linoleum', 'marmoleum', 'parquet', 'parket'],
  stone: ['natural stone', 'natuursteen', 'granite', 'graniet', 'marble', 'marmer', 'hardstone', 'hardsteen'],
} as const satisfies Record<string, readonly string[]>;

type Material = keyof typeof MATERIAL_WORDS;

/** The materials each part is commonly made of. */
const PART_MATERIALS: Record<BuildingPart, readonly Material[]> = {
  door: ['wood', 'steel', 'aluminium', 'glass'],
  window: ['wood', 'aluminium', 'plastic', 'glass', 'steel'],
  wall: ['concrete', 'brick', 'plaster', 'wood', 'stone'],
  floor: ['concrete', 'wood', 'tile', 'floorCovering', 'stone'],
  roof: ['tile', 'bitumen', 'zinc', 'wood', 'concrete', 'steel'],
  insulation: ['insulation'],
  pipe: ['copper', 'plastic', 'steel'],
  stair: ['concrete', 'wood', 'steel', 'stone'],
  ceiling: ['plaster', 'insulation', 'wood'],
  beam: ['steel', 'concrete', 'wood'],
  column: ['steel', 'concrete', 'wood', 'stone'],
  foundation: ['concrete', 'steel', 'wood'],
};

/**
 * The NL-SfB classes of each part: each a code with its subdivisions (`31.3` holds `31.30`…`31.34`), listed in the
 * code list's order. Insulation has no element of its own in NL-SfB: it is part of the wall, roof or floor it insulates.
 */
const PART_CLASSES: Record<BuildingPart, readonly string[]> = {
  door: ['31.3', '32.3'],
  window: ['31.2', '32.2', '37.2'],
  wall: ['21', '22', '28.2', '41', '42'],
  floor: ['23', '13', '28.2', '43'],
  roof: ['27', '37', '47'],
  insulation: [],
  pipe: ['52', '53'],
  stair: ['24', '44'],
  ceiling: ['45'],
  beam: ['28.1', '16.1'],
  column: ['28.1'],
  foundation: ['16', '17'],
};

/** The words of the parts in each language, folded, with their plurals. */
const PART_WORDS: Record<AppLocale, Record<string, BuildingPart>> = {
  en: {
    door: 'door', doors: 'door', window: 'window', windows: 'window', wall: 'wall', walls: 'wall',
    facade: 'wall', floor: 'floor', floors: 'floor', roof: 'roof', roofs: 'roof', insulation: 'insulation', pipe: 'pipe',
    pipes: 'pipe', stair: 'stair', stairs: 'stair', staircase: 'stair', ceiling: 'ceiling', ceilings: 'ceiling', beam: 'beam',
    beams: 'beam', column: 'column', columns: 'column', pillar: 'column', pillars: 'column', foundation: 'foundation',
    foundations: 'foundation',
  },
  nl: {
    deur: 'door', deuren: 'door', raam: 'window', ramen: 'window', venster: 'window',
    wand: 'wall', wanden: 'wall', muur: 'wall', muren: 'wall', gevel: 'wall', vloer: 'floor', vloeren: 'floor', dak: 'roof',
    daken: 'roof', isolatie: 'insulation', leiding: 'pipe', leidingen: 'pipe', buis: 'pipe', trap: 'stair', trappen: 'stair',
    plafond: 'ceiling', plafonds: 'ceiling', balk: 'beam', balken: 'beam', ligger: 'beam', liggers: 'beam', kolom: 'column',
    kolommen: 'column', pilaar: 'column', fundering: 'foundation', funderingen: 'foundation', fundament: 'foundation',
  },
  de: {
    tur: 'door', turen: 'door', fenster: 'window', wand: 'wall', wande: 'wall', mauer: 'wall',
    fassade: 'wall', boden: 'floor', fussboden: 'floor', decke: 'ceiling', dach: 'roof', dacher: 'roof', dammung: 'insulation',
    isolierung: 'insulation', rohr: 'pipe', rohre: 'pipe', leitung: 'pipe', treppe: 'stair', treppen: 'stair', balken: 'beam',
    trager: 'beam', stutze: 'column', stutzen: 'column', saule: 'column', saulen: 'column', fundament: 'foundation',
    fundamente: 'foundation', grundung: 'foundation', fundamentierung: 'foundation',
  },
  fr: {
    porte: 'door', portes: 'door', fenetre: 'window', fenetres: 'window', mur: 'wall', murs: 'wall',
    cloison: 'wall', facade: 'wall', sol: 'floor', plancher: 'floor', toit: 'roof', toiture: 'roof', isolation: 'insulation',
    tuyau: 'pipe', tuyaux: 'pipe', conduite: 'pipe', escalier: 'stair', escaliers: 'stair', plafond: 'ceiling',
    poutre: 'beam', poutres: 'beam', poteau: 'column', poteaux: 'column', colonne: 'column', pilier: 'column',
    fondation: 'foundation', fondations: 'foundation',
  },
  it: {
    porta: 'door', porte: 'door', finestra: 'window', finestre: 'window', infisso: 'window', muro: 'wall',
    parete: 'wall', pareti: 'wall', facciata: 'wall', pavimento: 'floor', solaio: 'floor', tetto: 'roof', copertura: 'roof',
    isolamento: 'insulation', tubo: 'pipe', tubi: 'pipe', scala: 'stair', scale: 'stair', soffitto: 'ceiling', trave: 'beam',
    travi: 'beam', pilastro: 'column', pilastri: 'column', colonna: 'column', colonne: 'column', fondazione: 'foundation',
    fondazioni: 'foundation',
  },
  es: {
    puerta: 'door', puertas: 'door', ventana: 'window', ventanas: 'window', pared: 'wall', paredes: 'wall',
    muro: 'wall', fachada: 'wall', suelo: 'floor', piso: 'floor', forjado: 'floor', techo: 'ceiling', tejado: 'roof',
    cubierta: 'roof', aislamiento: 'insulation', tuberia: 'pipe', tubo: 'pipe', escalera: 'stair', escaleras: 'stair',
    viga: 'beam', vigas: 'beam', pilar: 'column', pilares: 'column', columna: 'column', columnas: 'column',
    cimentacion: 'foundation', cimiento: 'foundation', cimientos: 'foundation',
  },
};

const PART_OF_WORD: ReadonlyMap<string, BuildingPart> = new Map(Object.values(PART_WORDS).flatMap((words) => Object.entries(words)));

/** The part a query word (folded) names in any language; a word of four letters or more also names the part it starts ("wind"). */
function partOf(word: string): BuildingPart | undefined {
  const part = PART_OF_WORD.get(word);
  if (part !== undefined || word.length < 4) return part;
  for (const [each, named] of PART_OF_WORD) if (each.startsWith(word)) return named;
  return undefined;
}

/** The word starts of the materials a query word stands for when it names a building part; none when it names none. */
export function synonymTermsOf(word: string): readonly string[] {
  const part = partOf(word);
  return part === undefined ? [] : PART_MATERIALS[part].flatMap((material) => MATERIAL_WORDS[material]);
}

/** Whether an NL-SfB code is one of `classes` or a subdivision of one (`21` holds `21.2`, `31.3` holds `31.34`). */
function inClasses(code: string, classes: readonly string[]): boolean {
  return classes.some((each) => code === each || code.startsWith(each.includes('.') ? each : `${each}.`));
}

/** The test of the NL-SfB codes a query word stands for when it names a building part; null when it names none. */
export function synonymClassesOf(word: string): ((code: string) => boolean) | null {
  const part = partOf(word);
  if (part === undefined) return null;
  const classes = PART_CLASSES[part];
  return (code) => inClasses(code, classes);
}
