import { describe, expect, it } from 'vitest';
import platformMaterialsJson from '../../../../server/store/seed/platform-materials.json' with { type: 'json' };
import { MATERIAL_KEYWORDS } from '../../../../server/refine/material-keyword-table';
import { materialByKeyword } from '../../../../server/refine/material-keywords';

// Platform materials (platform-materials.json), English / Dutch name.
const CONCRETE = 'f042f35e-5baf-47bd-9603-2a2e079f06cc'; // Concrete / Beton
const CONCRETE_C20_25 = '7e47cdcb-cc20-46fc-800f-88945f47d909'; // Concrete (C20/25)
const CONCRETE_C30_37 = '9747921c-2c7d-4bdd-ad0b-6d8e654de7b8'; // Concrete (C30/37)
const CONCRETE_C30_35 = 'cf462bdd-662e-469b-b603-ec2206d677ea'; // Concrete (C30/35)
const CONCRETE_C45_55 = '3a92c180-5ab6-4b42-b7b8-b8b1c57f38c9'; // Concrete (C45/55)
const REINFORCED_CONCRETE = 'dfdba8b5-f4bb-4a66-98f1-7a4c67322de5'; // Reinforced concrete / Gewapend beton
const UNREINFORCED_CONCRETE = '2a9831ad-3dcb-4e3d-a459-ef4e1ebfcf73'; // Unreinforced Concrete
const PRECAST_CONCRETE = '543ce213-de3f-4a6c-b5e3-687be3e6acc7'; // Concrete, prefabricated / Beton, prefab
const LIGHTWEIGHT_CONCRETE = 'f1e6acbd-ea03-40ce-a1fd-bbd7dab9d32c'; // Foam concrete / Schuimbeton, prefab
const AERATED_CONCRETE = 'a351f70a-47f7-4dc4-91eb-53ebbdbb7922'; // Aerated concrete / Gasbeton
const CONCRETE_BLOCK = '130e226f-0c9f-4c82-b823-e8e6e6b256d4'; // Concrete block / Betonblok
const SCREED = '937da53e-a2fd-4cb9-8a27-c4c47a748355'; // Sand cement / Zandcement
const MASONRY = '87a4f0e3-dc97-4653-9ba7-2d907249f1c3'; // Brickwork, Masonry / Metselwerk
const BRICK = 'ae3d0ec5-06dd-4642-a277-f16d73a831ae'; // Brick / Keramische baksteen
const ROOF_TILES = 'f155fd82-4485-4681-a94b-594bce4fef2c'; // Roof tiles / Keramische dakpan
const CALCIUM_SILICATE = '2eb0365d-98c0-41ab-87f4-2c9cd955e630'; // Lime sandstone / Kalkzandsteen
const MORTAR = '98532303-a450-4bf9-866b-4140bcd6f3d4'; // Cement mortar / Cementmortel
const GROUT = 'ba6c7c0b-03a4-48f1-b294-8f9f7c9ab7d4'; // Grout / Voegspecie
const NATURAL_STONE = 'f308df80-f461-4b20-8c46-befb9dce8ef4'; // Natural stone / Natuursteen
const GRANITE = '64ba4cce-b1c0-4419-b39e-0b45cef3888c'; // Granite / Graniet
const LIMESTONE = '55713725-bf06-4f77-b620-e5e5e1f71b04'; // Limestone / Kalksteen
const MARBLE = '8d234898-9151-48c2-86fe-207da7affa92'; // Marble / Marmer
const SANDSTONE = 'd34f8961-115e-4b08-bd8b-cda20f4c0ee6'; // Sandstone / Zandsteen
const CERAMIC_TILES = 'b91c0bec-2c72-4307-be5c-e3675bc8b725'; // Tiles / Keramische tegel
const STEEL = '402ee062-be5c-46de-b864-00e1735bd22a'; // Steel / Staal
const STRUCTURAL_STEEL = '14a11e65-ea96-4223-9fd1-d95df13e9392'; // Structural steel / constructiestaal
const STAINLESS_STEEL = '65f71dd7-0871-495e-8a98-a491563476d2'; // Stainless steel (SS) / rvs
const GALVANIZED_STEEL = 'eb9604c7-1a6b-4655-924c-5ab00bbff06c'; // Galvanized steel / Staal, gegalvaniseerd
const REINFORCING_STEEL = 'a4864af6-f236-4d5c-ac0c-2bfcf48fa554'; // Reinforcing steel B500
const REINFORCING_STEEL_B500A = '63b194d5-aadc-44b2-a656-6f357002c9c2'; // Reinforcing steel B500A
const ALUMINIUM = '1768c3c5-9b46-4659-8087-47c7e54522db'; // Aluminum / Aluminium
const COPPER = 'df2cacd5-f990-4e47-81f9-0c039fe4bdbd'; // Copper / Koper
const ZINC = 'e10fa555-1334-4953-b977-edf99b83713f'; // Zinc / Zink
const LEAD = '8b0eb96e-4d5f-4453-a725-cd4bec35d2a9'; // Lead / Lood
const WOOD = 'e3e89167-f0bf-4dc0-aa33-644ca3dc71df'; // Wood / Hout
const SOFTWOOD = '5fbedd05-cbdf-4c36-b55a-dcecb55e69bb'; // Pine wood / Naaldhout
const HARDWOOD = 'afeba9d1-f44e-478e-b4c6-67210f227b74'; // Hardwood / Hardhout
const DECIDUOUS_WOOD = 'edf30c43-894a-4619-936c-6f9862acbaac'; // Deciduous wood / Loofhout
const PINE = '38aa1a31-d170-4f6c-9536-079a5075b36d'; // Pine wood / Naaldhout - grenen
const SPRUCE = 'a62e8f1f-3e41-4142-b9f4-caf2ade186c0'; // Pinewood / Naaldhout - vuren
const LARCH = '9cfac659-0bb0-44c9-9c9f-8bb3cf124985'; // Larch wood / Naaldhout - lariks
const DOUGLAS = '85b8e203-3927-42eb-83f7-66b5f75591e9'; // Coniferous wood - douglas
const OAK = '003aeeb5-9b07-4c39-b50b-24fa9c23a4b7'; // Oak wood / Loofhout - eiken
const BEECH = '71261be2-baa0-4497-a070-51c979016da9'; // Beech wood / Loofhout - beuken
const BIRCH = '3527ada7-fa18-43d2-802c-3c2413e3da83'; // Birch wood / Loofhout - berken
const MAHOGANY = '2980803d-8e97-4687-b193-a4d9912c8246'; // Mahogany / Loofhout - mahonie
const GLULAM = 'c1bf7d33-cd22-408b-94ca-a6c6bd3a3dad'; // Wood, glued in layers, generic
const CLT = '83811e07-eed8-43df-988c-15dcf8eaf55d'; // CLT Cross Laminated Timber
const PLYWOOD = 'd80e1311-4225-4421-84f1-2c7af7ea61e1'; // Plywood / Multiplex
const OSB = '4ca36c30-15dd-4f88-b06d-e881d6c4e949'; // OSB
const MDF = '34f517ee-842e-4b43-9d69-2d98ec1c7707'; // MDF
const CHIPBOARD = '793ae441-d316-4570-89b0-b64a9ab35a54'; // Chipboard / Spaanplaat
const WOOD_FIBRE = '620d908e-adc1-43a6-a1d8-fdefdc4c5efb'; // Wood fibre (insulation) / Houtvezel (isolatie)
const GLASS = 'b499c354-fa05-4fc5-8ee4-8df89d09da4a'; // Glass / Glas
const MULTIPLE_GLAZING = '3b5a36a0-778b-40cc-9e0a-2aed314a7a92'; // Multiple glazing / Meervoudige beglazing
const GYPSUM = 'c0fab50b-4f06-4e69-bc63-e41d0992b26e'; // Plaster / Gips, generiek
const PLASTERBOARD = '5d40729b-5622-49d2-817a-ef4df59b460b'; // Plasterboard / Gipsplaat
const PLASTER = '1d9dfff8-84ee-432e-80fa-8cbfb2b1ee18'; // Stucco, Gypsum plaster / Pleisterwerk gips
const RENDER = '1466e6aa-dc39-459d-bd19-1fa587131897'; // Cement plaster / Cementpleister
const MINERAL_WOOL = 'd44514a9-eb98-4e72-8faf-09e2e282e6b0'; // Mineral wool / Minerale wol
const GLASS_WOOL = 'b0c4cbf0-4f4b-4762-a1f3-604069e17558'; // Glass wool / Glaswol
const ROCK_WOOL = 'a5b93cda-f913-4760-bdd1-3bc74fba44a2'; // Rock wool / Steenwol
const SHEEP_WOOL = '18e2a05b-5962-438d-9116-5fb11e373e49'; // Sheep's wool / Schapenwol
const EPS = '8696dcae-0f42-428e-876b-88b9ed526943'; // EPS polystyrene
const XPS = '03aa6b5d-bfed-4dc2-aad5-fc313acc41b4'; // XPS Polystyrene
const PIR = 'd413071e-fb83-4553-8af3-6992c2a1c32c'; // PIR Polyisocyanurate
const PUR = '46ed8e08-a37f-43d8-b6c1-12ee4606156b'; // PU Polyurethane foam
const PVC = 'f9747967-8baa-427b-9ff3-c15b49f26d6b'; // PVC Poly Vinyl chloride
const POLYETHYLENE = 'af924007-fc94-4237-88bc-04696a604620'; // Polyethylene / PE polyetheen
const HDPE = '008f3239-7c49-4e82-8b04-c9c7aa51fb58'; // HDPE Polyethylene
const POLYPROPYLENE = 'bd471e00-9051-47cc-a7bf-808e68e27a02'; // PP Polypropylene
const EPDM = '432306c3-59d2-4568-bfb8-17f9d76d0d04'; // EPDM
const BITUMEN = '262024f6-0f03-4dbe-8a67-a90ec2870e69'; // Bitumen
const ASPHALT = '142e83b0-883f-4d3f-93d3-a3b8caf5c9fc'; // Asphalt / Asfalt
const LINOLEUM = 'bc0a9b56-c0ca-4a45-9fa5-3968b2544928'; // Linoleum
const SAND = '636ac9b3-a981-44fc-9925-d602f5287778'; // Sand / Zand
const GRAVEL = '9008abce-710a-48b5-aae8-205618c2771c'; // Gravel / Grind

function idOf(...names: (string | null)[]): string | null {
  return materialByKeyword(...names)?.materialId ?? null;
}

/** Expectations as `name → id` pairs, so that a failure names the name. */
function expectIds(cases: readonly (readonly [string, string | null])[]): void {
  expect(cases.map(([name]) => [name, idOf(name)])).toEqual(cases.map(([name, id]) => [name, id]));
}

type Field = 'en' | 'nl' | 'de' | 'fr' | 'it' | 'es' | 'cad';
const FIELDS: readonly Field[] = ['en', 'nl', 'de', 'fr', 'it', 'es', 'cad'];

/** A realistic name per group and language (German "Sand" is the English keyword: see the table). */
const BY_LANGUAGE: readonly (readonly [string, Partial<Record<Field, string>>])[] = [
  [CONCRETE, { en: 'Concrete - Cast-in-Place Concrete', nl: 'Vloerbeton', de: 'Ortbeton', fr: 'Béton banché',
    it: 'Calcestruzzo', es: 'Hormigón', cad: 'C25/30' }],
  [CONCRETE_C20_25, { cad: 'C20/25' }],
  [CONCRETE_C30_37, { cad: 'C30/37' }],
  [CONCRETE_C30_35, { cad: 'Beton C30/35' }],
  [CONCRETE_C45_55, { cad: 'C45/55' }],
  [REINFORCED_CONCRETE, { en: 'Reinforced Concrete', nl: 'Gewapend beton', de: 'Stahlbeton', fr: 'Béton armé',
    it: 'Cemento armato', es: 'Hormigón armado HA-25' }],
  [UNREINFORCED_CONCRETE, { en: 'Plain concrete', nl: 'Ongewapend beton', de: 'Unbewehrter Beton', fr: 'Béton non armé',
    it: 'Calcestruzzo non armato', es: 'Hormigón en masa' }],
  [PRECAST_CONCRETE, { en: 'Precast', nl: 'Prefab beton', de: 'Betonfertigteil', fr: 'Béton préfabriqué',
    it: 'Calcestruzzo prefabbricato', es: 'Hormigón prefabricado' }],
  [LIGHTWEIGHT_CONCRETE, { en: 'Lightweight Concrete', nl: 'Lichtbeton', de: 'Leichtbeton', fr: 'Béton léger',
    it: 'Calcestruzzo alleggerito', es: 'Hormigón ligero', cad: 'LC20/22' }],
  [AERATED_CONCRETE, { en: 'Aerated concrete block', nl: 'Cellenbeton', de: 'Porenbeton PP2', fr: 'Béton cellulaire',
    it: 'Calcestruzzo cellulare', es: 'Hormigón celular', cad: 'Ytong' }],
  [CONCRETE_BLOCK, { en: 'Concrete Block', nl: 'Betonblokken', de: 'Hohlblockstein', fr: 'Parpaing',
    it: 'Blocco di calcestruzzo', es: 'Bloque de hormigón', cad: 'CMU' }],
  [SCREED, { en: 'Concrete, Sand/Cement Screed', nl: 'Cementdekvloer', de: 'Zementestrich', fr: 'Chape', it: 'Massetto',
    es: 'Recrecido de mortero' }],
  [MASONRY, { en: 'Masonry', nl: 'Metselwerk', de: 'Mauerwerk', fr: 'Maçonnerie', it: 'Muratura', es: 'Mampostería' }],
  [BRICK, { en: 'Brick, Common', nl: 'Baksteen', de: 'Mauerziegel', fr: 'Brique', it: 'Laterizio', es: 'Ladrillo' }],
  [ROOF_TILES, { en: 'Roof tiles', nl: 'Dakpannen', de: 'Dachziegel', fr: 'Tuile terre cuite', it: 'Coppo',
    es: 'Tejas' }],
  [CALCIUM_SILICATE, { en: 'Calcium silicate', nl: 'Kalkzandsteen', de: 'Kalksandstein', fr: 'Brique silico-calcaire',
    it: 'Mattone silico-calcareo', es: 'Ladrillo silicocalcáreo', cad: 'KZS' }],
  [MORTAR, { en: 'Mortar', nl: 'Metselmortel', de: 'Kalkmörtel', fr: 'Mortier', it: 'Malta', es: 'Mortero' }],
  [GROUT, { en: 'Masonry - Grout', nl: 'Voegmortel', de: 'Fugenmörtel', fr: 'Mortier de jointoiement',
    it: 'Stucco per fughe', es: 'Lechada' }],
  [NATURAL_STONE, { en: 'Natural stone', nl: 'Natuursteen', de: 'Naturstein', fr: 'Pierre naturelle',
    it: 'Pietra naturale', es: 'Piedra natural' }],
  [GRANITE, { en: 'Granite', nl: 'Graniet', de: 'Granit', fr: 'Granit', it: 'Granito', es: 'Granito' }],
  [LIMESTONE, { en: 'Limestone', nl: 'Kalksteen', de: 'Kalkstein', fr: 'Pierre calcaire', it: 'Pietra calcarea',
    es: 'Piedra caliza' }],
  [MARBLE, { en: 'Marble', nl: 'Marmer', de: 'Marmor', fr: 'Marbre', it: 'Marmo', es: 'Mármol' }],
  [SANDSTONE, { en: 'Sandstone', nl: 'Zandsteen', de: 'Sandstein', it: 'Arenaria', es: 'Arenisca' }],
  [CERAMIC_TILES, { en: 'Ceramic Tile', nl: 'Keramische tegels', de: 'Bodenfliesen', fr: 'Carrelage', it: 'Piastrelle',
    es: 'Azulejos' }],
  [STEEL, { en: 'Metal - Steel - 345 MPa', nl: 'Staal', de: 'Stahl', fr: 'Acier', it: 'Acciaio', es: 'Acero' }],
  [STRUCTURAL_STEEL, { en: 'Structural steel', nl: 'Constructiestaal', de: 'Baustahl', fr: 'Acier de construction',
    it: 'Acciaio strutturale', es: 'Acero estructural', cad: 'S355J2' }],
  [STAINLESS_STEEL, { en: 'Stainless steel', nl: 'Roestvrij staal', de: 'Edelstahl', fr: 'Acier inoxydable',
    it: 'Acciaio inossidabile', es: 'Acero inoxidable', cad: 'RVS' }],
  [GALVANIZED_STEEL, { en: 'Galvanized steel', nl: 'Thermisch verzinkt staal', de: 'Stahl feuerverzinkt',
    fr: 'Acier galvanisé', it: 'Acciaio zincato', es: 'Acero galvanizado' }],
  [REINFORCING_STEEL, { en: 'Reinforcing steel', nl: 'Betonstaal', de: 'Betonstahl', fr: "Acier d'armature",
    it: 'Tondino', es: 'Acero corrugado', cad: 'B500B' }],
  [REINFORCING_STEEL_B500A, { cad: 'Betonstahl B500A' }],
  [ALUMINIUM, { en: 'Metal - Aluminum', nl: 'Aluminium', de: 'Aluminium', fr: 'Aluminium anodisé', it: 'Alluminio',
    es: 'Aluminio', cad: 'Alu' }],
  [COPPER, { en: 'Copper', nl: 'Koper', de: 'Kupfer', fr: 'Cuivre', it: 'Rame', es: 'Cobre' }],
  [ZINC, { en: 'Zinc', nl: 'Zink', de: 'Titanzink', fr: 'Zinc', it: 'Zinco', es: 'Zinc' }],
  [LEAD, { en: 'Lead', nl: 'Lood', de: 'Walzblei', fr: 'Plomb', it: 'Piombo', es: 'Plomo' }],
  [WOOD, { en: 'Wood - Dimensional Lumber', nl: 'Hout', de: 'Holz', fr: 'Bois', it: 'Legno', es: 'Madera',
    cad: 'KVH' }],
  [SOFTWOOD, { en: 'Softwood', nl: 'Naaldhout', de: 'Nadelholz', fr: 'Résineux', it: 'Legno di conifera',
    es: 'Madera de conífera' }],
  [HARDWOOD, { en: 'Hardwood', nl: 'Hardhout', de: 'Hartholz', fr: 'Bois dur', it: 'Legno duro', es: 'Madera dura' }],
  [DECIDUOUS_WOOD, { en: 'Cherry', nl: 'Loofhout', de: 'Laubholz', fr: 'Merisier', it: 'Latifoglie', es: 'Frondosa' }],
  [PINE, { en: 'Pine', nl: 'Grenen', de: 'Kiefer', fr: 'Pin maritime', it: 'Pino', es: 'Pino silvestre' }],
  [SPRUCE, { en: 'Spruce', nl: 'Vurenhout', de: 'Fichte', fr: 'Épicéa', it: 'Abete', es: 'Abeto' }],
  [LARCH, { en: 'Larch', nl: 'Lariks', de: 'Lärche', fr: 'Mélèze', it: 'Larice', es: 'Alerce' }],
  [DOUGLAS, { en: 'Douglas fir', nl: 'Douglas', de: 'Douglasie', fr: 'Douglas', it: 'Douglasia',
    es: 'Abeto de Douglas' }],
  [OAK, { en: 'Oak', nl: 'Eikenhout', de: 'Eiche', fr: 'Chêne', it: 'Rovere', es: 'Roble' }],
  [BEECH, { en: 'Beech', nl: 'Beuken', de: 'Buche', fr: 'Hêtre', it: 'Faggio', es: 'Haya' }],
  [BIRCH, { en: 'Wood - Birch', nl: 'Berken', de: 'Birke', fr: 'Bouleau', it: 'Betulla', es: 'Abedul' }],
  [MAHOGANY, { en: 'Wood - Mahogany', nl: 'Mahonie', de: 'Mahagoni', fr: 'Acajou', it: 'Mogano', es: 'Caoba' }],
  [GLULAM, { en: 'Glulam', nl: 'Gelamineerd hout', de: 'Brettschichtholz', fr: 'Lamellé-collé', it: 'Legno lamellare',
    es: 'Madera laminada encolada', cad: 'BSH' }],
  [CLT, { en: 'Cross-laminated timber', nl: 'Kruislaaghout', de: 'Brettsperrholz', fr: 'Bois lamellé-croisé',
    it: 'Legno lamellare a strati incrociati', es: 'Madera contralaminada', cad: 'CLT' }],
  [PLYWOOD, { en: 'Wood - Sheathing - plywood', nl: 'Multiplex', de: 'Sperrholz', fr: 'Contreplaqué', it: 'Compensato',
    es: 'Contrachapado' }],
  [OSB, { en: 'Oriented strand board', cad: 'OSB/3' }],
  [MDF, { en: 'Medium density fibreboard', cad: 'MDF' }],
  [CHIPBOARD, { en: 'Chipboard', nl: 'Spaanplaat', de: 'Spanplatte', fr: 'Panneau de particules',
    it: 'Pannello truciolare', es: 'Tablero aglomerado' }],
  [WOOD_FIBRE, { en: 'Wood fibre insulation', nl: 'Houtvezel', de: 'Holzfaserdämmplatte', fr: 'Fibre de bois',
    it: 'Fibra di legno', es: 'Fibra de madera' }],
  [GLASS, { en: 'Glass', nl: 'Beglazing', de: 'Verglasung', fr: 'Verre', it: 'Vetro', es: 'Vidrio' }],
  [MULTIPLE_GLAZING, { en: 'Double glazing', nl: 'Dubbele beglazing', de: 'Isolierglas', fr: 'Double vitrage',
    it: 'Vetrocamera', es: 'Doble acristalamiento', cad: 'IGU' }],
  [GYPSUM, { en: 'Gypsum', nl: 'Gips', de: 'Gips', fr: 'Plâtre', it: 'Gesso', es: 'Yeso' }],
  [PLASTERBOARD, { en: 'Gypsum Wall Board', nl: 'Gipsplaat', de: 'Gipskartonplatte', fr: 'Plaque de plâtre',
    it: 'Cartongesso', es: 'Placa de yeso', cad: 'Pladur' }],
  [PLASTER, { en: 'Plaster', nl: 'Pleisterwerk', de: 'Innenputz', fr: 'Enduit', it: 'Intonaco',
    es: 'Enlucido de yeso' }],
  [RENDER, { en: 'Render', nl: 'Buitenpleister', de: 'Außenputz', fr: 'Crépi', it: 'Intonaco esterno', es: 'Revoque' }],
  [MINERAL_WOOL, { en: 'Mineral wool', nl: 'Minerale wol', de: 'Mineralwolle', fr: 'Laine minérale',
    it: 'Lana minerale', es: 'Lana mineral' }],
  [GLASS_WOOL, { en: 'Fiberglass Batt', nl: 'Glaswol', de: 'Glaswolle', fr: 'Laine de verre', it: 'Lana di vetro',
    es: 'Lana de vidrio' }],
  [ROCK_WOOL, { en: 'Rock wool', nl: 'Steenwol', de: 'Steinwolle', fr: 'Laine de roche', it: 'Lana di roccia',
    es: 'Lana de roca' }],
  [SHEEP_WOOL, { en: "Sheep's wool", nl: 'Schapenwol', de: 'Schafwolle', fr: 'Laine de mouton', it: 'Lana di pecora',
    es: 'Lana de oveja' }],
  [EPS, { en: 'Polystyrene', nl: 'Piepschuim', de: 'Polystyrol', fr: 'Polystyrène expansé', it: 'Polistirene espanso',
    es: 'Poliestireno expandido', cad: 'EPS 100' }],
  [XPS, { en: 'Extruded polystyrene', nl: 'Geëxtrudeerd polystyreen', de: 'Extrudiertes Polystyrol',
    fr: 'Polystyrène extrudé', it: 'Polistirene estruso', es: 'Poliestireno extruido', cad: 'XPS' }],
  [PIR, { en: 'Polyisocyanurate', nl: 'Polyisocyanuraat', de: 'Polyisocyanurat', fr: 'Polyisocyanurate',
    it: 'Poliisocianurato', es: 'Poliisocianurato', cad: 'PIR' }],
  [PUR, { en: 'Polyurethane foam', nl: 'Polyurethaan', de: 'Polyurethan', fr: 'Polyuréthane', it: 'Poliuretano espanso',
    es: 'Espuma de poliuretano', cad: 'PUR-Hartschaum' }],
  [PVC, { en: 'Vinyl Composition Tile', nl: 'Polyvinylchloride', de: 'Polyvinylchlorid', fr: 'Polychlorure de vinyle',
    it: 'Cloruro di polivinile', es: 'Policloruro de vinilo', cad: 'PVC-U' }],
  [POLYETHYLENE, { en: 'Polyethylene', nl: 'Polyetheen folie', de: 'Polyethylen', fr: 'Polyéthylène', it: 'Polietilene',
    es: 'Polietileno', cad: 'PE-Folie' }],
  [HDPE, { en: 'High-density polyethylene', fr: 'Polyéthylène haute densité', it: 'Polietilene ad alta densità',
    es: 'Polietileno de alta densidad', cad: 'PE-HD' }],
  [POLYPROPYLENE, { en: 'Polypropylene', nl: 'Polypropyleen', de: 'Polypropylen', fr: 'Polypropylène',
    it: 'Polipropilene', es: 'Polipropileno', cad: 'PP' }],
  [EPDM, { cad: 'Roofing - EPDM Membrane' }],
  [BITUMEN, { en: 'Roofing Felt', nl: 'Bitumineuze dakbedekking', de: 'Bitumenbahn', fr: 'Bitume',
    it: 'Guaina in bitume', es: 'Lámina bituminosa' }],
  [ASPHALT, { en: 'Asphalt', nl: 'Asfalt', de: 'Gussasphalt', fr: 'Asphalte', it: 'Asfalto', es: 'Asfalto' }],
  [LINOLEUM, { en: 'Linoleum', nl: 'Linoleum', de: 'Linoleum', fr: 'Linoléum', it: 'Linoleum', es: 'Linóleo',
    cad: 'Marmoleum' }],
  [SAND, { en: 'Sand', nl: 'Ophoogzand', de: 'Sand', fr: 'Sable', it: 'Sabbia', es: 'Arena' }],
  [GRAVEL, { en: 'Gravel', nl: 'Grind', de: 'Kies', fr: 'Gravier', it: 'Ghiaia', es: 'Grava' }],
];

describe('material keywords: the table', () => {
  const platform = new Map(platformMaterialsJson.materials.map((material) => [material.id, material]));

  it('targets materials of the platform database that have a specific weight, one group each', () => {
    const ids = MATERIAL_KEYWORDS.map((group) => group.materialId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(platform.has(id), id).toBe(true);
      expect(platform.get(id)?.specificWeight ?? 0, id).toBeGreaterThan(0);
    }
    for (const group of MATERIAL_KEYWORDS) {
      for (const broader of group.refines ?? []) {
        expect(ids, `${group.materialId} refines ${broader}`).toContain(broader);
      }
    }
  });

  it('every keyword alone finds its own group: no keyword is hidden by another group', () => {
    const misses = MATERIAL_KEYWORDS.flatMap((group) =>
      FIELDS.flatMap((field) =>
        (group[field] ?? []).map((keyword) => ({ keyword, expected: group.materialId, found: idOf(keyword) })),
      ),
    ).filter(({ expected, found }) => found !== expected);
    expect(misses).toEqual([]);
  });

  it('each group maps a realistic name in each of its languages to its material', () => {
    const tested = new Map(BY_LANGUAGE);
    for (const group of MATERIAL_KEYWORDS) {
      const samples = tested.get(group.materialId);
      expect(samples, `samples for ${group.materialId}`).toBeDefined();
      for (const field of FIELDS) {
        if (group[field] !== undefined) expect(samples?.[field], `${group.materialId} ${field}`).toBeDefined();
      }
    }
    const results = BY_LANGUAGE.flatMap(([, samples]) =>
      Object.entries(samples).map(([field, name]) => ({ field, name, id: idOf(name) })),
    );
    const expected = BY_LANGUAGE.flatMap(([id, samples]) =>
      Object.entries(samples).map(([field, name]) => ({ field, name, id })),
    );
    expect(results).toEqual(expected);
  });

  it('reports the keyword that found the material, as the table spells it', () => {
    expect(materialByKeyword('Mauerziegel')).toEqual({ materialId: BRICK, keyword: 'Ziegel' });
    expect(materialByKeyword('STEEL/S235JR')).toEqual({ materialId: STRUCTURAL_STEEL, keyword: 'S235' });
    expect(materialByKeyword('Porenbeton')).toEqual({ materialId: AERATED_CONCRETE, keyword: 'Porenbeton' });
  });
});

describe('material keywords: names that say nothing', () => {
  it('match nothing', () => {
    expect(materialByKeyword('Default')).toBeNull();
    expectIds(
      [
        'Generic', '<By Category>', '<Unnamed>', ' <Unnamed>', 'Material', 'Standard', 'Undefined', 'None', 'Unknown',
        'Basic Wall', 'Default Wall', 'Generic - 200mm', '12345', '0.25', '', '   ', '-', 'Solid 397409098',
      ].map((name) => [name, null] as const),
    );
    expect(materialByKeyword()).toBeNull();
    expect(materialByKeyword(null, null)).toBeNull();
  });

  it('are only noise around a material', () => {
    expectIds([
      ['Generic Concrete', CONCRETE],
      ['Default - Masonry - Brick', BRICK],
      ['Standard Plasterboard 12.5mm', PLASTERBOARD],
    ]);
  });
});

describe('material keywords: the most specific keyword', () => {
  it('wins over the keywords inside it', () => {
    expectIds([
      ['Mineral wool', MINERAL_WOOL],
      ['Wool', MINERAL_WOOL],
      ['Glass wool', GLASS_WOOL],
      ['Reinforced concrete', REINFORCED_CONCRETE],
      ['Aerated concrete', AERATED_CONCRETE],
      ['Porenbeton', AERATED_CONCRETE],
      ['Cellenbeton', AERATED_CONCRETE],
      ['Plasterboard', PLASTERBOARD],
      ['Gipskarton', PLASTERBOARD],
      ['Gypsum plasterboard', PLASTERBOARD],
      ['Gypsum board', PLASTERBOARD],
      ['Gips', GYPSUM],
      ['Stainless steel', STAINLESS_STEEL],
      ['Steel', STEEL],
      ['Concrete Masonry Units', CONCRETE_BLOCK],
      ['Kalkzandsteen', CALCIUM_SILICATE],
    ]);
  });

  it('after a broad kind, a later keyword of that kind wins ("Class - Material", a grade after the material)', () => {
    expectIds([
      ['Masonry - Brick', BRICK],
      ['Masonry - Concrete Block', CONCRETE_BLOCK],
      ['Mauerwerk, Kalksandstein', CALCIUM_SILICATE],
      ['Wood - Birch', BIRCH],
      ['Holz - Fichte', SPRUCE],
      ['Timber - Glulam', GLULAM],
      ['Concrete, Precast', PRECAST_CONCRETE],
      ['Steel, stainless', STAINLESS_STEEL],
      ['Stahl verzinkt', GALVANIZED_STEEL],
      ['Glass - Double glazing', MULTIPLE_GLAZING],
      ['Beton C30/37', CONCRETE_C30_37],
      ['Betonstahl B500A', REINFORCING_STEEL_B500A],
    ]);
  });

  it('but a later keyword of another material does not: the first material of a name carries most mass', () => {
    expectIds([
      ['Beton mit Mineralwolle', CONCRETE],
      ['Minerale wol, kalkzandsteen', MINERAL_WOOL],
      ['Glass - Steel frame', GLASS],
      ['Holz-Alu-Fenster', WOOD],
      // Tekla's CLASS/GRADE: the class comes first, so neoprene bearing pads read as steel.
      ['STEEL/NEOPRENE', STEEL],
      // Whether a steel-framed door is mostly steel the name cannot tell: it stays steel.
      ['Steel-framed door', STEEL],
      // A broader kind after a specific one changes nothing.
      ['Stahlbeton C25/30', REINFORCED_CONCRETE],
    ]);
  });
});

describe('material keywords: layered names', () => {
  it('take the first layer that names a material', () => {
    expectIds([
      ['Kalkzandsteen / Minerale wol / Baksteen', CALCIUM_SILICATE],
      ['Minerale wol / Kalkzandsteen / Baksteen', MINERAL_WOOL],
      ['Metal - Stud Layer / Plasterboard', PLASTERBOARD],
      ['Air / Concrete Masonry, Floor Block / Rigid insulation / Concrete, Precast', CONCRETE_BLOCK],
    ]);
  });

  it('never refine one layer by another: each is a material of its own', () => {
    expectIds([
      ['Metselwerk / Baksteen', MASONRY],
      ['Beton / C30/37', CONCRETE],
    ]);
  });

  it('try the names in the order given: materialName, then typeName', () => {
    expect(idOf('Holz', 'Beton')).toBe(WOOD);
    expect(idOf('Default', 'Basic Wall:150 Concrete')).toBe(CONCRETE);
    expect(idOf(null, 'Compound Ceiling:Gypsum Board')).toBe(PLASTERBOARD);
    expect(idOf('<Unnamed>', null, 'Kalkzandsteen')).toBe(CALCIUM_SILICATE);
  });
});

describe('material keywords: words and compounds', () => {
  it('Dutch and German keywords also end a compound (its head) or start one', () => {
    expectIds([
      ['Mauerziegel', BRICK],
      ['Hochlochziegel', BRICK],
      ['Kalksandstein', CALCIUM_SILICATE],
      ['Stahlbeton', REINFORCED_CONCRETE],
      ['Vloerbeton', CONCRETE],
      ['Titanzink', ZINC],
      ['Vollholz', WOOD],
      ['Holzbalken', WOOD],
      ['Zinkblech', ZINC],
      ['houten kozijn', WOOD],
      ['Mineralwolldämmung', MINERAL_WOOL],
    ]);
  });

  it("a compound's head names its material, unless its first part is a kind of the head", () => {
    expectIds([
      ['Glasfaserbeton', CONCRETE],
      ['Stahlfaserbeton', CONCRETE],
      ['Buchensperrholz', PLYWOOD],
      ['Gipsputz', PLASTER],
      ['Ziegelmauerwerk', BRICK],
      ['Kalksandsteinmauerwerk', CALCIUM_SILICATE],
      ['Eichenholz', OAK],
    ]);
  });

  it('other keywords match at word starts only, and short ones as whole words', () => {
    expectIds([
      ['fibreglass insulation', GLASS_WOOL],
      ['Fiberglas', GLASS_WOOL],
      ['Bricks', BRICK],
      ['Briques', BRICK],
      ['EPS100', EPS],
      ['OSB/3', OSB],
      ['Woodwork', null],
      ['Steelwork', null],
      ['Ramen', null], // Dutch windows, not Italian copper
      ['Plomberie', null], // French plumbing, not lead
      ['Pearl', null], // not PE
      ['Pinnacle', null], // not French pine
      ['Sandwichelement', null], // not sand
      ['Carpet Tile', null], // no ceramic tile
      ['Acoustic Ceiling Tile', null],
      ['Rubbertegel', null],
    ]);
  });
});

describe('material keywords: case, accents and Unicode', () => {
  it('fold case and accents, NFKC and "ß"', () => {
    expectIds([
      ['BÉTON', CONCRETE],
      ['béton', CONCRETE],
      ['Beton', CONCRETE],
      ['be\u0301ton arme\u0301', REINFORCED_CONCRETE],
      ['Lärche', LARCH],
      ['Larche', LARCH],
      ['MÖRTEL', MORTAR],
      ['Aussenputz', RENDER],
      ['AUSSENPUTZ', RENDER],
      ['ＣＯＮＣＲＥＴＥ', CONCRETE],
      ['Hormigon', CONCRETE],
      ['MAÇONNERIE', MASONRY],
    ]);
  });
});

describe('material keywords: steel grades and concrete classes', () => {
  it('name their material, with the suffixes Tekla and others write', () => {
    expectIds([
      ['S235', STRUCTURAL_STEEL],
      ['S235JR', STRUCTURAL_STEEL],
      ['S275J0', STRUCTURAL_STEEL],
      ['S355J2', STRUCTURAL_STEEL],
      ['S355J2+N', STRUCTURAL_STEEL],
      ['S460M', STRUCTURAL_STEEL],
      ['Fe360B', STRUCTURAL_STEEL],
      ['Stahl S355', STRUCTURAL_STEEL],
      ['STEEL/S235JR', STRUCTURAL_STEEL],
      ['1.4301', STAINLESS_STEEL],
      ['AISI 316L', STAINLESS_STEEL],
      ['B500B', REINFORCING_STEEL],
      ['BSt 500 S', REINFORCING_STEEL],
      ['C20/25', CONCRETE_C20_25],
      ['Beton C20/25', CONCRETE_C20_25],
      ['C30/37', CONCRETE_C30_37],
      ['C30/37-XC1', CONCRETE_C30_37],
      ['Béton C45/55', CONCRETE_C45_55],
      ['C25/30', CONCRETE],
      ['B25', CONCRETE],
      ['LC20/22', LIGHTWEIGHT_CONCRETE],
    ]);
  });

  it('do not run on into longer numbers or other classes', () => {
    expectIds([
      ['S2350', null],
      ['B250', null],
      ['C300/370', null],
      ['LC30/37', null],
      ['XS235', null],
    ]);
  });
});

/**
 * The material names of the IFC fixtures (IFCMATERIAL names, STEP escapes decoded, and some type names and joined
 * layer names as the import makes them), extracted once by hand, with what the table makes of them.
 */
const FIXTURE_NAMES: readonly (readonly [fixture: string, name: string, expected: string | null])[] = [
  ['AC20-FZK-Haus.ifc', 'Holz', WOOD],
  ['AC20-FZK-Haus.ifc', 'Leichtbeton 102890359', LIGHTWEIGHT_CONCRETE],
  ['AC20-FZK-Haus.ifc', 'Stahlbeton 65690', REINFORCED_CONCRETE],
  ['AC20-FZK-Haus.ifc', 'Radial Gradient Fill 1515460218', null],
  ['AC20-FZK-Haus.ifc', 'Solid', null],
  ['AC20-FZK-Haus.ifc', 'Solid 397409098', null],
  ['AC20-FZK-Haus.ifc', 'Leichtbeton 102890359 300', LIGHTWEIGHT_CONCRETE],
  ['AC20-FZK-Haus.ifc', 'IFC Fenster - zwei Panele - Vertikal', null],
  ['ISSUE_021_Mini_Project.ifc', 'CONCRETE/BETON', CONCRETE],
  ['ISSUE_021_Mini_Project.ifc', 'CONCRETE/FAKTOR', CONCRETE],
  ['ISSUE_021_Mini_Project.ifc', 'CONCRETE/GEWELF', CONCRETE],
  ['ISSUE_021_Mini_Project.ifc', 'CONCRETE/ISOBET', CONCRETE],
  ['ISSUE_021_Mini_Project.ifc', 'CONCRETE/ISOLEX', CONCRETE],
  ['ISSUE_021_Mini_Project.ifc', 'CONCRETE/PREDAL', CONCRETE],
  ['ISSUE_021_Mini_Project.ifc', 'CONCRETE/SILEX', CONCRETE],
  ['ISSUE_021_Mini_Project.ifc', 'CONCRETE/TT', CONCRETE],
  ['ISSUE_021_Mini_Project.ifc', 'MISCELLANEOUS/PU', PUR],
  ['ISSUE_021_Mini_Project.ifc', 'MISCELLANEOUS/PVC', PVC],
  ['ISSUE_021_Mini_Project.ifc', 'STEEL/NEOPRENE', STEEL],
  ['ISSUE_021_Mini_Project.ifc', 'STEEL/S235JR', STRUCTURAL_STEEL],
  ['ISSUE_021_Mini_Project.ifc', 'TIMBER/HOUT', WOOD],
  ['ISSUE_021_Mini_Project.ifc', 'HEA180', null],
  ['ISSUE_021_Mini_Project.ifc', 'WELFSEL15T_REI60', null],
  ['ISSUE_044_test_IFCCOMPOSITEPROFILEDEF.ifc', ' Divers - Vide', null],
  ['ISSUE_044_test_IFCCOMPOSITEPROFILEDEF.ifc', 'Cloison - Stratifié', null],
  ['ISSUE_044_test_IFCCOMPOSITEPROFILEDEF.ifc', 'Etanchéité - Pare pluie', null],
  ['ISSUE_044_test_IFCCOMPOSITEPROFILEDEF.ifc', 'Finition int - Carrelage DragonGrey 30x60 CASALGRANDE', CERAMIC_TILES],
  ['ISSUE_044_test_IFCCOMPOSITEPROFILEDEF.ifc', 'Struct. - Béton Mur Porteur #', CONCRETE],
  [
    'ISSUE_044_test_IFCCOMPOSITEPROFILEDEF.ifc',
    'Cloison - Stratifié / Divers - Vide / Struct. - Béton Mur Porteur # / Finition int - Carrelage DragonGrey 30x60 CASALGRANDE / Etanchéité - Pare pluie',
    CONCRETE,
  ],
  ['ISSUE_044_test_IFCCOMPOSITEPROFILEDEF.ifc', '000-TEST cloisonSMS80sur talon béton 86 x 2240', CONCRETE],
  ['SampleHouse4.ifc', 'Air', null],
  ['SampleHouse4.ifc', 'Aluminium', ALUMINIUM],
  ['SampleHouse4.ifc', 'Brick, Common', BRICK],
  ['SampleHouse4.ifc', 'Cherry', DECIDUOUS_WOOD],
  ['SampleHouse4.ifc', 'Concrete Masonry Units _Low Density', CONCRETE_BLOCK],
  ['SampleHouse4.ifc', 'Concrete Masonry, Floor Block', CONCRETE_BLOCK],
  ['SampleHouse4.ifc', 'Concrete, Cast In Situ', CONCRETE],
  ['SampleHouse4.ifc', 'Concrete, Precast', PRECAST_CONCRETE],
  ['SampleHouse4.ifc', 'Concrete, Sand/Cement Screed', SCREED],
  ['SampleHouse4.ifc', 'Damp-proofing', null],
  ['SampleHouse4.ifc', 'Door - Architrave', null],
  ['SampleHouse4.ifc', 'Door - Frame/Mullion (1)', null],
  ['SampleHouse4.ifc', 'Door - Frame/Mullion', null],
  ['SampleHouse4.ifc', 'Door - Handle', null],
  ['SampleHouse4.ifc', 'Door - Panel', null],
  ['SampleHouse4.ifc', 'Fabric - Beige', null],
  ['SampleHouse4.ifc', 'Fabric - Blue, Glossy', null],
  ['SampleHouse4.ifc', 'Fiberglass Batt', GLASS_WOOL],
  ['SampleHouse4.ifc', 'Glass', GLASS],
  ['SampleHouse4.ifc', 'Gypsum Wall Board', PLASTERBOARD],
  ['SampleHouse4.ifc', 'Laminate, Ivory, Matte', null],
  ['SampleHouse4.ifc', 'Metal - Chrome', null],
  // A stud layer is mostly void: steel's weight over its volume would overstate its mass many times.
  ['SampleHouse4.ifc', 'Metal Stud Layer', null],
  ['SampleHouse4.ifc', 'Plaster', PLASTER],
  // Rigid boards are foam plastics or mineral wool: the name does not say which.
  ['SampleHouse4.ifc', 'Rigid insulation', null],
  ['SampleHouse4.ifc', 'Roofing Felt', BITUMEN],
  ['SampleHouse4.ifc', 'Steel, Chrome Plated', STEEL],
  ['SampleHouse4.ifc', 'Textile - White', null],
  ['SampleHouse4.ifc', 'Vapor Retarder', null],
  ['SampleHouse4.ifc', 'Window Frame', null],
  ['SampleHouse4.ifc', 'Wood - Birch', BIRCH],
  ['SampleHouse4.ifc', 'Wood - Mahogany', MAHOGANY],
  ['SampleHouse4.ifc', 'Brick, Common / Fiberglass Batt / Concrete Masonry Units _Low Density / Plaster', BRICK],
  ['SampleHouse4.ifc', 'Window Frame / Glass', GLASS],
  ['SampleHouse4.ifc', 'Laminate, Ivory, Matte / Steel, Chrome Plated / Cherry', STEEL],
  ['SampleHouse4.ifc', 'Curtain Wall:Curtain_Wall-Exterior_Glazing:8490', GLASS],
  ['SampleHouse4.ifc', 'Basic Wall:Wall-Ext_102Bwk-75Ins-100LBlk-12P', null],
  ['duplex.ifc', 'Ceramic Tile', CERAMIC_TILES],
  ['duplex.ifc', 'Concrete', CONCRETE],
  ['duplex.ifc', 'Concrete - Cast In Situ', CONCRETE],
  ['duplex.ifc', 'Insulation / Thermal Barriers - Rigid insulation', null],
  ['duplex.ifc', 'Insulation / Thermal Barriers - Semi-rigid insulation', null],
  ['duplex.ifc', 'Masonry - Brick', BRICK],
  ['duplex.ifc', 'Masonry - Concrete Block', CONCRETE_BLOCK],
  ['duplex.ifc', 'Masonry - Grout', GROUT],
  ['duplex.ifc', 'Metal - Steel - 345 MPa', STEEL],
  ['duplex.ifc', 'Metal - Stud Layer', null],
  ['duplex.ifc', 'Misc. Air Layers - Air Space', null],
  ['duplex.ifc', 'Plasterboard', PLASTERBOARD],
  ['duplex.ifc', 'Roofing - Barrier', null],
  ['duplex.ifc', 'Roofing - EPDM Membrane', EPDM],
  ['duplex.ifc', 'Site - Grass', null],
  ['duplex.ifc', 'Wood - Dimensional Lumber', WOOD],
  ['duplex.ifc', 'Wood - Flooring', WOOD],
  ['duplex.ifc', 'Wood - Sheathing - plywood', PLYWOOD],
  [
    'duplex.ifc',
    'Masonry - Concrete Block / Masonry - Brick / Insulation / Thermal Barriers - Rigid insulation / Metal - Stud Layer / Misc. Air Layers - Air Space / Plasterboard',
    CONCRETE_BLOCK,
  ],
  ['duplex.ifc', 'Wood - Flooring / Insulation / Thermal Barriers - Semi-rigid insulation', WOOD],
  ['duplex.ifc', 'Basic Wall:Party Wall - CMU Residential Unit Dimising Wall:128555', CONCRETE_BLOCK],
  ['duplex.ifc', 'Floor:Finish Floor - Ceramic Tile', CERAMIC_TILES],
  ['duplex.ifc', 'M_W-Wide Flange:W310X60:208816', null],
  ['example.ifc', '<Unnamed>', null],
  ['example.ifc', 'Concrete, Cast-in-Place gray', CONCRETE],
  ['example.ifc', 'Metal - Steel - 345 MPa', STEEL],
  ['example.ifc', 'Concrete-Rectangular-Column:300x300', CONCRETE],
  ['example.ifc', 'NZ-PFC Channels beam:300PFC40.1', null],
];

describe('material keywords: the names of the IFC fixtures', () => {
  it('map as listed', () => {
    expect(new Set(FIXTURE_NAMES.map(([fixture]) => fixture)).size).toBe(6);
    const found = FIXTURE_NAMES.map(([fixture, name]) => [fixture, name, idOf(name)]);
    expect(found).toEqual(FIXTURE_NAMES.map(([fixture, name, expected]) => [fixture, name, expected]));
  });
});
