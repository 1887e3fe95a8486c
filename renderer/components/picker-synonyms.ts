/**
 * What users search the catalogue picker for that catalogues do not name: a building part ("door", "Tür", "deur"),
 * where they mean the materials such a part is commonly made of. Each language has a small table of part words, kept
 * here and nowhere else; a part's materials are named by word starts of their names in the six languages (and by
 * their material family where the whole family fits), so own materials named in one language are found too.
 *
 * To add a word: put it, in lower case without accents, in its language's table under the part it names; to add a
 * part, give it its materials in `PART_MATERIALS` and its words in every language.
 */
import type { AppLocale } from '../i18n';

/** The building parts the picker understands. */
type BuildingPart = 'door' | 'window' | 'wall' | 'floor' | 'roof' | 'insulation' | 'pipe' | 'stair' | 'ceiling' | 'beam';

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
};

/** The words of the parts in each language, folded, with their plurals. */
const PART_WORDS: Record<AppLocale, Record<string, BuildingPart>> = {
  en: {
    door: 'door', doors: 'door', window: 'window', windows: 'window', wall: 'wall', walls: 'wall',
    facade: 'wall', floor: 'floor', floors: 'floor', roof: 'roof', roofs: 'roof', insulation: 'insulation', pipe: 'pipe',
    pipes: 'pipe', stair: 'stair', stairs: 'stair', staircase: 'stair', ceiling: 'ceiling', ceilings: 'ceiling', beam: 'beam',
    beams: 'beam', column: 'beam', columns: 'beam',
  },
  nl: {
    deur: 'door', deuren: 'door', raam: 'window', ramen: 'window', venster: 'window',
    wand: 'wall', wanden: 'wall', muur: 'wall', muren: 'wall', gevel: 'wall', vloer: 'floor', vloeren: 'floor', dak: 'roof',
    daken: 'roof', isolatie: 'insulation', leiding: 'pipe', leidingen: 'pipe', buis: 'pipe', trap: 'stair', trappen: 'stair',
    plafond: 'ceiling', plafonds: 'ceiling', balk: 'beam', balken: 'beam', kolom: 'beam', kolommen: 'beam',
  },
  de: {
    tur: 'door', turen: 'door', fenster: 'window', wand: 'wall', wande: 'wall', mauer: 'wall',
    fassade: 'wall', boden: 'floor', fussboden: 'floor', decke: 'ceiling', dach: 'roof', dacher: 'roof', dammung: 'insulation',
    isolierung: 'insulation', rohr: 'pipe', rohre: 'pipe', leitung: 'pipe', treppe: 'stair', treppen: 'stair', balken: 'beam',
    trager: 'beam', stutze: 'beam', saule: 'beam',
  },
  fr: {
    porte: 'door', portes: 'door', fenetre: 'window', fenetres: 'window', mur: 'wall', murs: 'wall',
    cloison: 'wall', facade: 'wall', sol: 'floor', plancher: 'floor', toit: 'roof', toiture: 'roof', isolation: 'insulation',
    tuyau: 'pipe', tuyaux: 'pipe', conduite: 'pipe', escalier: 'stair', escaliers: 'stair', plafond: 'ceiling',
    poutre: 'beam', poutres: 'beam', poteau: 'beam', colonne: 'beam',
  },
  it: {
    porta: 'door', porte: 'door', finestra: 'window', finestre: 'window', infisso: 'window', muro: 'wall',
    parete: 'wall', pareti: 'wall', facciata: 'wall', pavimento: 'floor', solaio: 'floor', tetto: 'roof', copertura: 'roof',
    isolamento: 'insulation', tubo: 'pipe', tubi: 'pipe', scala: 'stair', scale: 'stair', soffitto: 'ceiling', trave: 'beam',
    travi: 'beam', pilastro: 'beam', colonna: 'beam',
  },
  es: {
    puerta: 'door', puertas: 'door', ventana: 'window', ventanas: 'window', pared: 'wall', paredes: 'wall',
    muro: 'wall', fachada: 'wall', suelo: 'floor', piso: 'floor', forjado: 'floor', techo: 'ceiling', tejado: 'roof',
    cubierta: 'roof', aislamiento: 'insulation', tuberia: 'pipe', tubo: 'pipe', escalera: 'stair', escaleras: 'stair',
    viga: 'beam', vigas: 'beam', pilar: 'beam', columna: 'beam',
  },
};

const PART_OF_WORD: ReadonlyMap<string, BuildingPart> = new Map(Object.values(PART_WORDS).flatMap((words) => Object.entries(words)));

/**
 * The word starts of the materials a query word stands for when it names a building part in any language (folded
 * word); none when it names none. A word of four letters or more also stands for the part it starts ("wind").
 */
export function synonymTermsOf(word: string): readonly string[] {
  let part = PART_OF_WORD.get(word);
  if (part === undefined && word.length >= 4) {
    for (const [each, named] of PART_OF_WORD) {
      if (each.startsWith(word)) {
        part = named;
        break;
      }
    }
  }
  return part === undefined ? [] : PART_MATERIALS[part].flatMap((material) => MATERIAL_WORDS[material]);
}
