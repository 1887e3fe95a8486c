/**
 * The keyword table of the platform's materials (server/store/seed/platform-materials.json), per language and for CAD
 * names; `material-keywords.ts` matches element names against it. Data only.
 */

/**
 * The keywords of one platform material, per language. Matching folds case and accents. A keyword matches at the
 * start of a word and may go on into it ("brique" finds "briques"), except that a keyword of five characters or
 * fewer must be a whole word ("rame" is not in "Ramen", "wood" not in "Woodwork") and one ending in a digit must not
 * be followed by a digit ("S235" is in "S235JR", not in "S2350"). Dutch and German keywords also match at the start
 * or the end of a compound word, whatever their length.
 */
export interface MaterialKeywordGroup {
  /** The material's id in the platform's database. */
  readonly materialId: string;
  /**
   * The materials this one is a kind of ("Brick" of "Masonry", "C30/37" of "Concrete"): where a name says the broad
   * kind first and the specific one later in the same layer ("Masonry - Brick", "Beton C30/37"), the specific wins.
   */
  readonly refines?: readonly string[];
  readonly en?: readonly string[];
  readonly nl?: readonly string[];
  readonly de?: readonly string[];
  readonly fr?: readonly string[];
  readonly it?: readonly string[];
  readonly es?: readonly string[];
  /** CAD tools' names, trade names, abbreviations, grades and strength classes: the same in every language. */
  readonly cad?: readonly string[];
}

// The materials other groups refine, named once for the `refines` lists.
/** Concrete / Beton, 2300 kg/m³. */
const CONCRETE = 'f042f35e-5baf-47bd-9603-2a2e079f06cc';
/** Brickwork, Masonry / Metselwerk, 1700 kg/m³. */
const MASONRY = '87a4f0e3-dc97-4653-9ba7-2d907249f1c3';
/** Natural stone / Natuursteen, 2650 kg/m³. */
const NATURAL_STONE = 'f308df80-f461-4b20-8c46-befb9dce8ef4';
/** Steel / Staal, 7800 kg/m³. */
const STEEL = '402ee062-be5c-46de-b864-00e1735bd22a';
/** Reinforcing steel B500 / Staallegering, betonstaal B500, 7800 kg/m³. */
const REINFORCING_STEEL = 'a4864af6-f236-4d5c-ac0c-2bfcf48fa554';
/** Wood / Hout, 780 kg/m³. */
const WOOD = 'e3e89167-f0bf-4dc0-aa33-644ca3dc71df';
/** Pine wood / Naaldhout, 550 kg/m³: the database's softwood as such (its Dutch name says so). */
const SOFTWOOD = '5fbedd05-cbdf-4c36-b55a-dcecb55e69bb';
/** Hardwood / Hardhout, 800 kg/m³. */
const HARDWOOD = 'afeba9d1-f44e-478e-b4c6-67210f227b74';
/** Deciduous wood / Loofhout, 780 kg/m³. */
const DECIDUOUS_WOOD = 'edf30c43-894a-4619-936c-6f9862acbaac';
/** Glass / Glas, 2500 kg/m³. */
const GLASS = 'b499c354-fa05-4fc5-8ee4-8df89d09da4a';
/** Plaster / Gips, generiek, 1800 kg/m³: gypsum as such. */
const GYPSUM = 'c0fab50b-4f06-4e69-bc63-e41d0992b26e';
/** Stucco, Gypsum plaster / Pleisterwerk gips, 1300 kg/m³: a plaster coat (most interior plaster is gypsum). */
const PLASTER = '1d9dfff8-84ee-432e-80fa-8cbfb2b1ee18';
/** Mineral wool / Minerale wol, 18 kg/m³. */
const MINERAL_WOOL = 'd44514a9-eb98-4e72-8faf-09e2e282e6b0';
/** Polyethylene / PE polyetheen, 935 kg/m³. */
const POLYETHYLENE = 'af924007-fc94-4237-88bc-04696a604620';

/**
 * The table: one group per platform material, its English / Dutch name and specific weight in a comment. Where the
 * database holds several materials of one kind, the comment says why this one.
 */
export const MATERIAL_KEYWORDS: readonly MaterialKeywordGroup[] = [
  // ---- Concrete ----
  {
    // Concrete / Beton, 2300 kg/m³. Also Revit's "Cast-in-Place": the database's cast-in-place concrete is called
    // "Unreinforced" in English, which Revit's name does not say. EN 206 classes without a material of their own and
    // the old DIN 1045 / Dutch B classes name concrete as such.
    materialId: CONCRETE,
    en: ['concrete', 'cast-in-place', 'cast in situ'],
    nl: ['beton', 'in het werk gestort'],
    de: ['Beton'],
    fr: ['béton'],
    it: ['calcestruzzo', 'cls'],
    es: ['hormigón', 'concreto'],
    cad: [
      'C8/10', 'C12/15', 'C16/20', 'C25/30', 'C28/35', 'C35/45', 'C40/50', 'C50/60', 'C53/65', 'C55/67', 'C60/75',
      'C70/85', 'C80/95', 'C90/105', 'C100/115', 'B15', 'B25', 'B35', 'B45', 'B55',
    ],
  },
  // Concrete (C20/25) / Beton (C20/25), 2400 kg/m³.
  { materialId: '7e47cdcb-cc20-46fc-800f-88945f47d909', refines: [CONCRETE], cad: ['C20/25'] },
  // Concrete (C30/37) / Beton (C30/37), 2400 kg/m³.
  { materialId: '9747921c-2c7d-4bdd-ad0b-6d8e654de7b8', refines: [CONCRETE], cad: ['C30/37'] },
  // Concrete (C30/35) / Beton (C30/35), 2400 kg/m³: no EN 206 class, but the database has it.
  { materialId: 'cf462bdd-662e-469b-b603-ec2206d677ea', refines: [CONCRETE], cad: ['C30/35'] },
  // Concrete (C45/55) / Beton (C45/55), 2400 kg/m³.
  { materialId: '3a92c180-5ab6-4b42-b7b8-b8b1c57f38c9', refines: [CONCRETE], cad: ['C45/55'] },
  {
    // Reinforced concrete / Gewapend beton, 2400 kg/m³; prestressed concrete is reinforced too.
    materialId: 'dfdba8b5-f4bb-4a66-98f1-7a4c67322de5',
    refines: [CONCRETE],
    en: ['reinforced concrete', 'prestressed concrete'],
    nl: ['gewapend beton', 'voorgespannen beton'],
    de: ['Stahlbeton', 'Spannbeton'],
    fr: ['béton armé', 'béton précontraint'],
    it: ['calcestruzzo armato', 'cemento armato'],
    es: ['hormigón armado', 'hormigón pretensado'],
  },
  {
    // Unreinforced Concrete / Beton, in het werk gestort, 2300 kg/m³.
    materialId: '2a9831ad-3dcb-4e3d-a459-ef4e1ebfcf73',
    refines: [CONCRETE],
    en: ['unreinforced concrete', 'plain concrete', 'mass concrete'],
    nl: ['ongewapend beton'],
    de: ['unbewehrter Beton'],
    fr: ['béton non armé'],
    it: ['calcestruzzo non armato'],
    es: ['hormigón en masa', 'hormigón no armado'],
  },
  {
    // Concrete, prefabricated / Beton, prefab, 2300 kg/m³; Revit's "Precast".
    materialId: '543ce213-de3f-4a6c-b5e3-687be3e6acc7',
    refines: [CONCRETE],
    en: ['precast', 'prefabricated concrete'],
    nl: ['prefab beton'],
    de: ['Fertigteil'],
    fr: ['béton préfabriqué'],
    it: ['calcestruzzo prefabbricato'],
    es: ['hormigón prefabricado'],
  },
  {
    // Foam concrete / Schuimbeton, prefab, 1000 kg/m³: classified as lightweight aggregate concrete, so lightweight
    // concrete and its LC classes come here too.
    materialId: 'f1e6acbd-ea03-40ce-a1fd-bbd7dab9d32c',
    refines: [CONCRETE],
    en: ['lightweight concrete', 'foam concrete', 'foamed concrete'],
    nl: ['lichtbeton', 'schuimbeton'],
    de: ['Leichtbeton', 'Schaumbeton'],
    fr: ['béton léger', 'béton mousse'],
    it: ['calcestruzzo leggero', 'calcestruzzo alleggerito'],
    es: ['hormigón ligero'],
    cad: [
      'LC8/9', 'LC12/13', 'LC16/18', 'LC20/22', 'LC25/28', 'LC30/33', 'LC35/38', 'LC40/44', 'LC45/50', 'LC50/55',
      'LC55/60', 'LC60/66', 'LC70/77', 'LC80/88',
    ],
  },
  {
    // Aerated concrete / Gasbeton, 500 kg/m³: a typical AAC block. Dutch "cellenbeton" is the same material (the
    // database's Cellenbeton, 850 kg/m³, is a heavier variant its own rule finds before this table is asked).
    materialId: 'a351f70a-47f7-4dc4-91eb-53ebbdbb7922',
    refines: [CONCRETE, MASONRY],
    en: ['aerated concrete', 'aircrete', 'cellular concrete'],
    nl: ['gasbeton', 'cellenbeton'],
    de: ['Porenbeton', 'Gasbeton'],
    fr: ['béton cellulaire'],
    it: ['calcestruzzo cellulare', 'calcestruzzo aerato'],
    es: ['hormigón celular'],
    cad: ['AAC', 'Ytong', 'Siporex', 'Hebel'],
  },
  {
    // Concrete block / Betonblok, 2000 kg/m³.
    materialId: '130e226f-0c9f-4c82-b823-e8e6e6b256d4',
    refines: [MASONRY, CONCRETE],
    en: ['concrete block', 'concrete masonry', 'cinder block', 'breeze block', 'blockwork'],
    nl: ['betonblok'],
    de: ['Betonstein', 'Hohlblock'],
    fr: ['parpaing', 'bloc béton', 'bloc de béton'],
    it: ['blocco di calcestruzzo', 'blocco in calcestruzzo'],
    es: ['bloque de hormigón', 'bloque de concreto'],
    cad: ['CMU'],
  },
  {
    // Sand cement / Zandcement, 2575 kg/m³: the database's own target for cement screed (its rule "cementdekvloer").
    // Revit files screed under Concrete ("Concrete, Sand/Cement Screed").
    materialId: '937da53e-a2fd-4cb9-8a27-c4c47a748355',
    refines: [CONCRETE],
    en: ['screed', 'sand cement'],
    nl: ['dekvloer', 'zandcement'],
    de: ['Estrich'],
    fr: ['chape'],
    it: ['massetto'],
    es: ['recrecido'],
  },

  // ---- Masonry and stone ----
  {
    // Brickwork, Masonry / Metselwerk, 1700 kg/m³: masonry as such; its units and mortars refine it.
    materialId: MASONRY,
    en: ['masonry', 'brickwork'],
    nl: ['metselwerk'],
    de: ['Mauerwerk'],
    fr: ['maçonnerie'],
    it: ['muratura'],
    es: ['mampostería'],
  },
  {
    // Brick / Keramische baksteen, 1450 kg/m³: of the two "Brick" materials, the one the database's own rules "Brick"
    // and "Baksteen" find.
    materialId: 'ae3d0ec5-06dd-4642-a277-f16d73a831ae',
    refines: [MASONRY],
    en: ['brick', 'bricks'],
    nl: ['baksteen', 'gevelsteen', 'klinker'],
    de: ['Ziegel', 'Backstein', 'Klinker'],
    fr: ['brique', 'terre cuite'],
    it: ['mattone', 'mattoni', 'laterizi'],
    es: ['ladrillo'],
  },
  {
    // Roof tiles / Keramische dakpan, 2300 kg/m³; here so that "Dachziegel" is no brick.
    materialId: 'f155fd82-4485-4681-a94b-594bce4fef2c',
    en: ['roof tile', 'roofing tile'],
    nl: ['dakpan'],
    de: ['Dachziegel'],
    fr: ['tuile', 'tuiles'],
    it: ['tegola', 'tegole', 'coppo'],
    es: ['teja', 'tejas'],
  },
  {
    // Lime sandstone / Kalkzandsteen, 1900 kg/m³: calcium silicate units.
    materialId: '2eb0365d-98c0-41ab-87f4-2c9cd955e630',
    refines: [MASONRY],
    en: ['calcium silicate', 'sand-lime brick'],
    nl: ['kalkzandsteen'],
    de: ['Kalksandstein'],
    fr: ['silico-calcaire', 'brique silico-calcaire'],
    it: ['silico-calcareo', 'mattone silico-calcareo'],
    es: ['silicocalcáreo', 'ladrillo silicocalcáreo'],
    cad: ['KZS'],
  },
  {
    // Cement mortar / Cementmortel, 1900 kg/m³: the database's own target for "Mortar". Revit files mortar under
    // Masonry.
    materialId: '98532303-a450-4bf9-866b-4140bcd6f3d4',
    refines: [MASONRY],
    en: ['mortar'],
    nl: ['mortel'],
    de: ['Mörtel'],
    fr: ['mortier'],
    it: ['malta'],
    es: ['mortero'],
  },
  {
    // Grout / Voegspecie, 1450 kg/m³ (Revit: "Masonry - Grout").
    materialId: 'ba6c7c0b-03a4-48f1-b294-8f9f7c9ab7d4',
    refines: [MASONRY],
    en: ['grout'],
    nl: ['voegspecie', 'voegmortel'],
    de: ['Fugenmörtel'],
    fr: ['mortier de jointoiement'],
    it: ['stucco per fughe'],
    es: ['lechada', 'mortero de juntas'],
  },
  {
    // Natural stone / Natuursteen, 2650 kg/m³.
    materialId: NATURAL_STONE,
    refines: [MASONRY],
    en: ['natural stone'],
    nl: ['natuursteen'],
    de: ['Naturstein'],
    fr: ['pierre naturelle'],
    it: ['pietra naturale'],
    es: ['piedra natural'],
  },
  {
    // Granite / Graniet, 2700 kg/m³.
    materialId: '64ba4cce-b1c0-4419-b39e-0b45cef3888c',
    refines: [NATURAL_STONE],
    en: ['granite'],
    nl: ['graniet'],
    de: ['Granit'],
    fr: ['granit'],
    it: ['granito'],
    es: ['granito'],
  },
  {
    // Limestone / Kalksteen, 2250 kg/m³.
    materialId: '55713725-bf06-4f77-b620-e5e5e1f71b04',
    refines: [NATURAL_STONE],
    en: ['limestone'],
    nl: ['kalksteen'],
    de: ['Kalkstein'],
    fr: ['calcaire'],
    it: ['calcare'],
    es: ['caliza'],
  },
  {
    // Marble / Marmer, 2800 kg/m³.
    materialId: '8d234898-9151-48c2-86fe-207da7affa92',
    refines: [NATURAL_STONE],
    en: ['marble'],
    nl: ['marmer'],
    de: ['Marmor'],
    fr: ['marbre'],
    it: ['marmo'],
    es: ['mármol'],
  },
  {
    // Sandstone / Zandsteen, 2600 kg/m³.
    materialId: 'd34f8961-115e-4b08-bd8b-cda20f4c0ee6',
    refines: [NATURAL_STONE],
    en: ['sandstone'],
    nl: ['zandsteen'],
    de: ['Sandstein'],
    it: ['arenaria'],
    es: ['arenisca'],
  },
  {
    // Tiles / Keramische tegel, 2000 kg/m³. Not the bare English "tile" or Dutch "tegel": they qualify other
    // materials as often ("Carpet Tile", "Acoustic Ceiling Tile", "Rubbertegel"). German compounds take the plural
    // ("Bodenfliesen").
    materialId: 'b91c0bec-2c72-4307-be5c-e3675bc8b725',
    en: ['ceramic tile', 'porcelain tile'],
    nl: ['keramische tegel', 'tegelwerk', 'wandtegel'],
    de: ['Fliese', 'Fliesen'],
    fr: ['carrelage'],
    it: ['piastrella', 'piastrelle', 'gres porcellanato'],
    es: ['azulejo', 'baldosa cerámica'],
  },

  // ---- Metals ----
  {
    // Steel / Staal, 7800 kg/m³. (Italian "acero" is maple, Spanish "acero" steel: the Spanish reading wins.)
    materialId: STEEL,
    en: ['steel'],
    nl: ['staal'],
    de: ['Stahl'],
    fr: ['acier'],
    it: ['acciaio'],
    es: ['acero'],
  },
  {
    // Structural steel / Staallegering, constructiestaal, 7800 kg/m³: the steel of the structural grades (EN 10025,
    // the older Fe and St names, ASTM).
    materialId: '14a11e65-ea96-4223-9fd1-d95df13e9392',
    refines: [STEEL],
    en: ['structural steel'],
    nl: ['constructiestaal'],
    de: ['Baustahl'],
    fr: ['acier de construction'],
    it: ['acciaio strutturale', 'acciaio da carpenteria'],
    es: ['acero estructural'],
    cad: [
      'S235', 'S275', 'S355', 'S420', 'S450', 'S460', 'S690', 'Fe360', 'Fe430', 'Fe510', 'St37', 'St52', 'A36',
      'A572', 'A992',
    ],
  },
  {
    // Stainless steel (SS) / Staallegering, rvs, 7930 kg/m³.
    materialId: '65f71dd7-0871-495e-8a98-a491563476d2',
    refines: [STEEL],
    en: ['stainless'],
    nl: ['roestvrij', 'roestvast'],
    de: ['Edelstahl', 'rostfrei', 'nichtrostend'],
    fr: ['inoxydable'],
    it: ['inossidabile'],
    es: ['inoxidable'],
    cad: ['RVS', 'inox', 'V2A', 'V4A', '1.4301', '1.4401', '1.4404', '1.4571', 'AISI 304', 'AISI 316'],
  },
  {
    // Galvanized steel / Staal, gegalvaniseerd, 7800 kg/m³: of the two, the one with steel's weight (the other,
    // 7400 kg/m³, is Sendzimir sheet).
    materialId: 'eb9604c7-1a6b-4655-924c-5ab00bbff06c',
    refines: [STEEL],
    en: ['galvanized', 'galvanised'],
    nl: ['gegalvaniseerd', 'verzinkt'],
    de: ['verzinkt'],
    fr: ['galvanisé'],
    it: ['zincato', 'zincata'],
    es: ['galvanizado'],
  },
  {
    // Reinforcing steel B500 / Staallegering, betonstaal B500, 7800 kg/m³.
    materialId: REINFORCING_STEEL,
    refines: [STEEL],
    en: ['reinforcing steel', 'reinforcement steel', 'rebar'],
    nl: ['betonstaal', 'wapeningsstaal'],
    de: ['Betonstahl', 'Bewehrungsstahl', 'Baustahlgewebe'],
    fr: ["acier d'armature"],
    it: ['tondino'],
    es: ['acero corrugado'],
    cad: ['B500', 'B500B', 'B500C', 'BSt500', 'BSt 500'],
  },
  // Reinforcing steel B500A / Staallegering, betonstaal B500A, 7800 kg/m³.
  { materialId: '63b194d5-aadc-44b2-a656-6f357002c9c2', refines: [REINFORCING_STEEL], cad: ['B500A'] },
  {
    // Aluminum / Aluminium, 2800 kg/m³.
    materialId: '1768c3c5-9b46-4659-8087-47c7e54522db',
    en: ['aluminium', 'aluminum'],
    nl: ['aluminium'],
    de: ['Aluminium'],
    fr: ['aluminium'],
    it: ['alluminio'],
    es: ['aluminio'],
    cad: ['Alu'],
  },
  {
    // Copper / Koper, 8900 kg/m³.
    materialId: 'df2cacd5-f990-4e47-81f9-0c039fe4bdbd',
    en: ['copper'],
    nl: ['koper'],
    de: ['Kupfer'],
    fr: ['cuivre'],
    it: ['rame'],
    es: ['cobre'],
  },
  {
    // Zinc / Zink, 7200 kg/m³.
    materialId: 'e10fa555-1334-4953-b977-edf99b83713f',
    en: ['zinc'],
    nl: ['zink'],
    de: ['Zink'],
    fr: ['zinc'],
    it: ['zinco'],
    es: ['zinc'],
  },
  {
    // Lead / Lood, 11300 kg/m³.
    materialId: '8b0eb96e-4d5f-4453-a725-cd4bec35d2a9',
    en: ['lead'],
    nl: ['lood'],
    de: ['Blei'],
    fr: ['plomb'],
    it: ['piombo'],
    es: ['plomo'],
  },

  // ---- Wood ----
  {
    // Wood / Hout, 780 kg/m³.
    materialId: WOOD,
    en: ['wood', 'wooden', 'timber', 'lumber'],
    nl: ['hout'],
    de: ['Holz'],
    fr: ['bois'],
    it: ['legno'],
    es: ['madera'],
    cad: ['KVH'],
  },
  {
    // Pine wood / Naaldhout, 550 kg/m³: softwood as such.
    materialId: SOFTWOOD,
    refines: [WOOD],
    en: ['softwood', 'conifer'],
    nl: ['naaldhout'],
    de: ['Nadelholz'],
    fr: ['résineux'],
    it: ['conifera'],
    es: ['conífera'],
  },
  {
    // Hardwood / Hardhout, 800 kg/m³.
    materialId: HARDWOOD,
    refines: [WOOD],
    en: ['hardwood'],
    nl: ['hardhout'],
    de: ['Hartholz'],
    fr: ['bois dur'],
    it: ['legno duro'],
    es: ['madera dura'],
  },
  {
    // Deciduous wood / Loofhout, 780 kg/m³; also the broadleaf species the database has no material for.
    materialId: DECIDUOUS_WOOD,
    refines: [WOOD],
    en: ['deciduous', 'cherry', 'maple', 'walnut'],
    nl: ['loofhout', 'kersenhout', 'esdoorn', 'notenhout'],
    de: ['Laubholz', 'Kirsch', 'Ahorn', 'Nussbaum'],
    fr: ['feuillu', 'merisier', 'cerisier', 'érable', 'noyer'],
    it: ['latifoglie', 'ciliegio', 'noce'],
    es: ['frondosa', 'cerezo', 'arce', 'nogal'],
  },
  {
    // Pine wood / Naaldhout - grenen, 540 kg/m³: Scots pine ("grenen", Kiefer), of the database's three pines the one
    // named by the usual Dutch trade name.
    materialId: '38aa1a31-d170-4f6c-9536-079a5075b36d',
    refines: [SOFTWOOD],
    en: ['pine'],
    nl: ['grenen'],
    de: ['Kiefer', 'Föhre'],
    fr: ['pin'],
    it: ['pino'],
    es: ['pino'],
  },
  {
    // Pinewood / Naaldhout - vuren, 460 kg/m³: "vuren" is spruce and fir (European whitewood), so German "Fichte"
    // (spruce) comes here, not to pine.
    materialId: 'a62e8f1f-3e41-4142-b9f4-caf2ade186c0',
    refines: [SOFTWOOD],
    en: ['spruce', 'fir'],
    nl: ['vuren'],
    de: ['Fichte', 'Tanne'],
    fr: ['épicéa', 'sapin'],
    it: ['abete'],
    es: ['abeto'],
  },
  {
    // Larch wood / Naaldhout - lariks, 800 kg/m³.
    materialId: '9cfac659-0bb0-44c9-9c9f-8bb3cf124985',
    refines: [SOFTWOOD],
    en: ['larch'],
    nl: ['lariks'],
    de: ['Lärche'],
    fr: ['mélèze'],
    it: ['larice'],
    es: ['alerce'],
  },
  {
    // Coniferous wood - douglas / Naaldhout - douglas, 700 kg/m³; here so that "Douglas fir" is no spruce.
    materialId: '85b8e203-3927-42eb-83f7-66b5f75591e9',
    refines: [SOFTWOOD],
    en: ['douglas'],
    nl: ['douglas'],
    de: ['Douglasie'],
    fr: ['douglas'],
    it: ['douglasia'],
    es: ['pino oregón', 'abeto de Douglas'],
  },
  {
    // Oak wood / Loofhout - eiken, 720 kg/m³.
    materialId: '003aeeb5-9b07-4c39-b50b-24fa9c23a4b7',
    refines: [DECIDUOUS_WOOD, HARDWOOD],
    en: ['oak'],
    nl: ['eiken'],
    de: ['Eiche'],
    fr: ['chêne'],
    it: ['rovere', 'quercia'],
    es: ['roble'],
  },
  {
    // Beech wood / Loofhout - beuken, 720 kg/m³.
    materialId: '71261be2-baa0-4497-a070-51c979016da9',
    refines: [DECIDUOUS_WOOD, HARDWOOD],
    en: ['beech'],
    nl: ['beuken'],
    de: ['Buche'],
    fr: ['hêtre'],
    it: ['faggio'],
    es: ['haya'],
  },
  {
    // Birch wood / Loofhout - berken, 660 kg/m³.
    materialId: '3527ada7-fa18-43d2-802c-3c2413e3da83',
    refines: [DECIDUOUS_WOOD, HARDWOOD],
    en: ['birch'],
    nl: ['berken'],
    de: ['Birke'],
    fr: ['bouleau'],
    it: ['betulla'],
    es: ['abedul'],
  },
  {
    // Mahogany, Mahogany wood / Loofhout - mahonie, 650 kg/m³.
    materialId: '2980803d-8e97-4687-b193-a4d9912c8246',
    refines: [DECIDUOUS_WOOD, HARDWOOD],
    en: ['mahogany'],
    nl: ['mahonie'],
    de: ['Mahagoni'],
    fr: ['acajou'],
    it: ['mogano'],
    es: ['caoba'],
  },
  {
    // Wood, glued in layers, generic / Hout, in lagen verlijmd, generiek, 750 kg/m³: glulam.
    materialId: 'c1bf7d33-cd22-408b-94ca-a6c6bd3a3dad',
    refines: [WOOD],
    en: ['glulam', 'glued laminated', 'laminated timber'],
    nl: ['gelamineerd hout', 'verlijmd hout'],
    de: ['Brettschichtholz'],
    fr: ['lamellé-collé'],
    it: ['legno lamellare'],
    es: ['madera laminada'],
    cad: ['BSH', 'BLC'],
  },
  {
    // CLT Cross Laminated Timber, 780 kg/m³.
    materialId: '83811e07-eed8-43df-988c-15dcf8eaf55d',
    refines: [WOOD],
    en: ['cross laminated'],
    nl: ['kruislaaghout'],
    de: ['Brettsperrholz'],
    fr: ['lamellé-croisé'],
    it: ['legno lamellare a strati incrociati'],
    es: ['madera contralaminada'],
    cad: ['CLT', 'KLH', 'X-lam', 'XLAM'],
  },
  {
    // Plywood / Multiplex, 750 kg/m³: the database's own target for "Plywood" (Triplex is thin three-ply).
    materialId: 'd80e1311-4225-4421-84f1-2c7af7ea61e1',
    refines: [WOOD],
    en: ['plywood'],
    nl: ['multiplex'],
    de: ['Sperrholz'],
    fr: ['contreplaqué'],
    it: ['compensato', 'multistrato'],
    es: ['contrachapado'],
  },
  // OSB, 650 kg/m³.
  { materialId: '4ca36c30-15dd-4f88-b06d-e881d6c4e949', refines: [WOOD], en: ['oriented strand board'], cad: ['OSB'] },
  {
    // MDF, 750 kg/m³.
    materialId: '34f517ee-842e-4b43-9d69-2d98ec1c7707',
    refines: [WOOD],
    en: ['medium density fibreboard', 'medium density fiberboard'],
    cad: ['MDF'],
  },
  {
    // Chipboard / Spaanplaat, 800 kg/m³.
    materialId: '793ae441-d316-4570-89b0-b64a9ab35a54',
    refines: [WOOD],
    en: ['chipboard', 'particleboard', 'particle board'],
    nl: ['spaanplaat'],
    de: ['Spanplatte'],
    fr: ['panneau de particules'],
    it: ['truciolare'],
    es: ['tablero aglomerado', 'tablero de partículas'],
  },
  {
    // Wood fibre (insulation) / Houtvezel (isolatie), 250 kg/m³.
    materialId: '620d908e-adc1-43a6-a1d8-fdefdc4c5efb',
    refines: [WOOD],
    en: ['wood fibre', 'wood fiber'],
    nl: ['houtvezel'],
    de: ['Holzfaser'],
    fr: ['fibre de bois'],
    it: ['fibra di legno'],
    es: ['fibra de madera'],
  },

  // ---- Glass ----
  {
    // Glass / Glas, 2500 kg/m³.
    materialId: GLASS,
    en: ['glass', 'glazing'],
    nl: ['glas', 'beglazing'],
    de: ['Glas', 'Verglasung'],
    fr: ['verre', 'vitrage'],
    it: ['vetro'],
    es: ['vidrio', 'acristalamiento'],
  },
  {
    // Multiple glazing / Meervoudige beglazing, 2500 kg/m³.
    materialId: '3b5a36a0-778b-40cc-9e0a-2aed314a7a92',
    refines: [GLASS],
    en: ['double glazing', 'triple glazing', 'insulating glass', 'insulated glass'],
    nl: ['dubbel glas', 'dubbele beglazing', 'driedubbel glas', 'isolatieglas'],
    de: ['Isolierglas', 'Zweifachverglasung', 'Dreifachverglasung'],
    fr: ['double vitrage', 'triple vitrage'],
    it: ['vetrocamera', 'doppio vetro', 'triplo vetro'],
    es: ['doble acristalamiento', 'triple acristalamiento', 'doble vidrio'],
    cad: ['IGU'],
  },

  // ---- Gypsum and plaster ----
  {
    // Plaster / Gips, generiek, 1800 kg/m³: gypsum as such.
    materialId: GYPSUM,
    en: ['gypsum'],
    nl: ['gips'],
    de: ['Gips'],
    fr: ['plâtre'],
    it: ['gesso'],
    es: ['yeso'],
  },
  {
    // Plasterboard / Gipsplaat, 1100 kg/m³: of the two plasterboards the one with the generic name (the other,
    // Gipskartonplaat, 900 kg/m³, is what the database's own rules "Gypsum" and "Gipskarton" find first).
    materialId: '5d40729b-5622-49d2-817a-ef4df59b460b',
    refines: [GYPSUM],
    en: ['plasterboard', 'gypsum board', 'gypsum wallboard', 'gypsum wall board', 'drywall'],
    nl: ['gipsplaat', 'gipskarton'],
    de: ['Gipskarton', 'Gipsplatte'],
    fr: ['plaque de plâtre', 'placoplâtre'],
    it: ['cartongesso'],
    es: ['placa de yeso', 'cartón yeso'],
    cad: ['Rigips', 'Placo', 'Pladur', 'Sheetrock', 'BA13'],
  },
  {
    // Stucco, Gypsum plaster / Pleisterwerk gips, 1300 kg/m³: a plaster coat, most often gypsum indoors.
    materialId: PLASTER,
    refines: [GYPSUM],
    en: ['plaster'],
    nl: ['pleister', 'stucwerk'],
    de: ['Putz'],
    fr: ['enduit'],
    it: ['intonaco'],
    es: ['enlucido'],
  },
  {
    // Cement plaster / Cementpleister, 1900 kg/m³: render, the cement-based outdoor coat (American "stucco").
    materialId: '1466e6aa-dc39-459d-bd19-1fa587131897',
    refines: [PLASTER],
    en: ['render', 'cement plaster', 'stucco'],
    nl: ['cementpleister', 'buitenpleister'],
    de: ['Außenputz', 'Zementputz', 'Kalkzementputz'],
    fr: ['crépi', 'enduit de façade', 'enduit ciment'],
    it: ['intonaco esterno', 'intonaco cementizio'],
    es: ['revoque', 'enfoscado'],
  },

  // ---- Insulation ----
  {
    // Mineral wool / Minerale wol, 18 kg/m³; also bare "wool". German compounds drop the final e ("Mineralwoll-
    // dämmung"), hence the stem beside the word.
    materialId: MINERAL_WOOL,
    en: ['mineral wool', 'wool'],
    nl: ['minerale wol'],
    de: ['Mineralwolle', 'Mineralwoll'],
    fr: ['laine minérale'],
    it: ['lana minerale'],
    es: ['lana mineral'],
  },
  {
    // Glass wool / Glaswol, 17 kg/m³: a mineral wool with a material of its own; fibreglass insulation is glass wool,
    // not glass.
    materialId: 'b0c4cbf0-4f4b-4762-a1f3-604069e17558',
    refines: [MINERAL_WOOL],
    en: ['glass wool', 'fibreglass', 'fiberglass'],
    nl: ['glaswol'],
    de: ['Glaswolle', 'Glaswoll', 'Fiberglas'],
    fr: ['laine de verre'],
    it: ['lana di vetro'],
    es: ['lana de vidrio'],
  },
  {
    // Rock wool / Steenwol, 57 kg/m³.
    materialId: 'a5b93cda-f913-4760-bdd1-3bc74fba44a2',
    refines: [MINERAL_WOOL],
    en: ['rock wool', 'rockwool', 'stone wool'],
    nl: ['steenwol'],
    de: ['Steinwolle', 'Steinwoll'],
    fr: ['laine de roche'],
    it: ['lana di roccia'],
    es: ['lana de roca'],
  },
  {
    // Sheep's wool / Schapenwol, 2 kg/m³; here so that sheep's wool is no mineral wool.
    materialId: '18e2a05b-5962-438d-9116-5fb11e373e49',
    en: ["sheep's wool", 'sheep wool'],
    nl: ['schapenwol'],
    de: ['Schafwolle', 'Schafwoll'],
    fr: ['laine de mouton'],
    it: ['lana di pecora'],
    es: ['lana de oveja'],
  },
  {
    // EPS polystyrene / EPS Polystyreen, 30 kg/m³; also polystyrene unqualified, expanded being the usual one.
    materialId: '8696dcae-0f42-428e-876b-88b9ed526943',
    en: ['polystyrene', 'PS foam'],
    nl: ['polystyreen', 'piepschuim'],
    de: ['Polystyrol', 'PS-Hartschaum'],
    fr: ['polystyrène'],
    it: ['polistirene', 'polistirolo'],
    es: ['poliestireno'],
    cad: ['EPS', 'Styropor', 'PSE'],
  },
  {
    // XPS Polystyrene / XPS Polystyreen, 37 kg/m³.
    materialId: '03aa6b5d-bfed-4dc2-aad5-fc313acc41b4',
    en: ['extruded polystyrene'],
    nl: ['geëxtrudeerd polystyreen'],
    de: ['extrudiertes Polystyrol'],
    fr: ['polystyrène extrudé'],
    it: ['polistirene estruso'],
    es: ['poliestireno extruido'],
    cad: ['XPS', 'Styrodur'],
  },
  {
    // PIR Polyisocyanurate / PIR Polyisocyanuraat, 30 kg/m³.
    materialId: 'd413071e-fb83-4553-8af3-6992c2a1c32c',
    en: ['polyisocyanurate'],
    nl: ['polyisocyanuraat'],
    de: ['Polyisocyanurat'],
    fr: ['polyisocyanurate'],
    it: ['poliisocianurato'],
    es: ['poliisocianurato'],
    cad: ['PIR'],
  },
  {
    // PU Polyurethane foam / PUR Polyurethaan, 70 kg/m³.
    materialId: '46ed8e08-a37f-43d8-b6c1-12ee4606156b',
    en: ['polyurethane'],
    nl: ['polyurethaan'],
    de: ['Polyurethan'],
    fr: ['polyuréthane'],
    it: ['poliuretano'],
    es: ['poliuretano'],
    cad: ['PUR', 'PU'],
  },

  // ---- Plastics, membranes, bitumen ----
  {
    // PVC Poly Vinyl chloride / PVC, 1200 kg/m³; vinyl floors are PVC.
    materialId: 'f9747967-8baa-427b-9ff3-c15b49f26d6b',
    en: ['polyvinyl chloride', 'vinyl'],
    nl: ['polyvinylchloride'],
    de: ['Polyvinylchlorid'],
    fr: ['polychlorure de vinyle'],
    it: ['polivinilcloruro', 'cloruro di polivinile'],
    es: ['policloruro de vinilo'],
    cad: ['PVC'],
  },
  {
    // Polyethylene / PE polyetheen, 935 kg/m³.
    materialId: POLYETHYLENE,
    en: ['polyethylene', 'polythene'],
    nl: ['polyetheen', 'polyethyleen'],
    de: ['Polyethylen'],
    fr: ['polyéthylène'],
    it: ['polietilene'],
    es: ['polietileno'],
    cad: ['PE'],
  },
  {
    // HDPE Polyethylene / HDPE Polyetheen, 960 kg/m³.
    materialId: '008f3239-7c49-4e82-8b04-c9c7aa51fb58',
    refines: [POLYETHYLENE],
    en: ['high density polyethylene'],
    fr: ['polyéthylène haute densité'],
    it: ['polietilene ad alta densità'],
    es: ['polietileno de alta densidad'],
    cad: ['HDPE', 'PE-HD'],
  },
  {
    // PP Polypropylene / PP Polypropyleen, 900 kg/m³.
    materialId: 'bd471e00-9051-47cc-a7bf-808e68e27a02',
    en: ['polypropylene'],
    nl: ['polypropyleen'],
    de: ['Polypropylen'],
    fr: ['polypropylène'],
    it: ['polipropilene'],
    es: ['polipropileno'],
    cad: ['PP'],
  },
  // EPDM, 1150 kg/m³.
  { materialId: '432306c3-59d2-4568-bfb8-17f9d76d0d04', cad: ['EPDM'] },
  {
    // Bitumen, 1050 kg/m³; roofing felt is bitumen felt.
    materialId: '262024f6-0f03-4dbe-8a67-a90ec2870e69',
    en: ['bitumen', 'bituminous', 'roofing felt'],
    nl: ['bitumen', 'bitumineus', 'bitumineuze', 'dakleer'],
    de: ['Bitumen', 'bituminös', 'Dachpappe'],
    fr: ['bitume'],
    it: ['bitume'],
    es: ['betún', 'lámina bituminosa'],
  },
  {
    // Asphalt / Asfalt, 2100 kg/m³.
    materialId: '142e83b0-883f-4d3f-93d3-a3b8caf5c9fc',
    en: ['asphalt'],
    nl: ['asfalt'],
    de: ['Asphalt'],
    fr: ['asphalte'],
    it: ['asfalto'],
    es: ['asfalto'],
  },
  {
    // Linoleum, 1200 kg/m³; Marmoleum is a linoleum (and must not read as Spanish "mármol").
    materialId: 'bc0a9b56-c0ca-4a45-9fa5-3968b2544928',
    en: ['linoleum'],
    nl: ['linoleum'],
    de: ['Linoleum'],
    fr: ['linoléum'],
    it: ['linoleum'],
    es: ['linóleo'],
    cad: ['Marmoleum'],
  },

  // ---- Fills ----
  {
    // Sand / Zand, 1750 kg/m³. No German "Sand": as a compound's start it would find "Sandwichelement"; the English
    // keyword finds the German word alone.
    materialId: '636ac9b3-a981-44fc-9925-d602f5287778',
    en: ['sand'],
    nl: ['zand'],
    fr: ['sable'],
    it: ['sabbia'],
    es: ['arena'],
  },
  {
    // Gravel / Grind, 2200 kg/m³.
    materialId: '9008abce-710a-48b5-aae8-205618c2771c',
    en: ['gravel'],
    nl: ['grind'],
    de: ['Kies'],
    fr: ['gravier'],
    it: ['ghiaia'],
    es: ['grava', 'gravilla'],
  },
];
