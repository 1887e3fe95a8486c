/**
 * The columns of a spreadsheet source file (docs/decisions.md §11), written once for the three that speak them: the
 * server's importer recognises every header name of every language, the grid's export and the import template write
 * the first name of the user's language, and the template explains each column in that language with the names of all.
 */

/** The languages a sheet's headers are recognised in: those of the app. */
export const SHEET_LANGUAGES = ['nl', 'en', 'de', 'fr', 'it', 'es'] as const;
/** A language of a sheet's headers. */
export type SheetLanguage = (typeof SHEET_LANGUAGES)[number];

/** Each language's name in that language, as the template's explanation heads its columns. */
export const SHEET_LANGUAGE_NAMES: Record<SheetLanguage, string> = {
  nl: 'Nederlands',
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  it: 'Italiano',
  es: 'Español',
};

/** The quantity fields of a row. */
export type SheetQuantityField = 'volume' | 'area' | 'length' | 'width' | 'height' | 'weight' | 'amount';
/** The text fields of a row. */
export type SheetTextField = 'id' | 'name' | 'description' | 'material' | 'materialId' | 'classification' | 'floor' | 'phase' | 'elementClass';
/** A field a column of a sheet is read into. */
export type SheetField = SheetTextField | SheetQuantityField;

/** A column of a spreadsheet source file. */
export interface SheetColumn {
  field: SheetField;
  /** The unit its numbers are in (SI, as the importer takes them); null for text and counts. */
  unit: 'm³' | 'm²' | 'm' | 'kg' | null;
  /** The header names it is recognised by, per language; the first is the one written. Compared as `normaliseHeader` says. */
  headers: Record<SheetLanguage, readonly string[]>;
  /** What it holds, per language: the template's explanation. */
  explanation: Record<SheetLanguage, string>;
}

/** Every column the importer reads, in the order the import template lists them. */
export const SHEET_COLUMNS: readonly SheetColumn[] = [
  {
    field: 'id',
    unit: null,
    // Two names in every language: the template's explanation lists them in one cell, which must never read as a header.
    headers: {
      nl: ['Id', 'Merk'],
      en: ['Id', 'Mark'],
      de: ['Id', 'Kennung'],
      fr: ['Id', 'Identifiant'],
      it: ['Id', 'Identificativo'],
      es: ['Id', 'Identificador'],
    },
    explanation: {
      nl: 'De aanduiding van het element, uniek in het bestand. Verplicht: een rij zonder wordt overgeslagen en genoemd.',
      en: 'The element’s identifier, unique in the file. Required: a row without one is left out and named.',
      de: 'Die Kennung des Elements, eindeutig in der Datei. Pflicht: eine Zeile ohne sie wird ausgelassen und genannt.',
      fr: 'L’identifiant de l’élément, unique dans le fichier. Obligatoire : une ligne sans identifiant est écartée et signalée.',
      it: 'L’identificativo dell’elemento, unico nel file. Obbligatorio: una riga senza viene esclusa e segnalata.',
      es: 'El identificador del elemento, único en el archivo. Obligatorio: una fila sin él se omite y se indica.',
    },
  },
  {
    field: 'name',
    unit: null,
    headers: { nl: ['Naam'], en: ['Name'], de: ['Name', 'Bezeichnung'], fr: ['Nom'], it: ['Nome'], es: ['Nombre'] },
    explanation: {
      nl: 'De naam van het element.',
      en: 'The element’s name.',
      de: 'Der Name des Elements.',
      fr: 'Le nom de l’élément.',
      it: 'Il nome dell’elemento.',
      es: 'El nombre del elemento.',
    },
  },
  {
    field: 'description',
    unit: null,
    headers: {
      nl: ['Omschrijving', 'Typenaam'],
      en: ['Description', 'Type name', 'Description/Type name', 'Description/Typename'],
      de: ['Beschreibung', 'Typname'],
      fr: ['Description', 'Nom du type'],
      it: ['Descrizione', 'Nome del tipo'],
      es: ['Descripción', 'Nombre del tipo'],
    },
    explanation: {
      nl: 'Het type of de omschrijving; koppelregels lezen die na de materiaalnaam.',
      en: 'The type or description; match rules read it after the material name.',
      de: 'Der Typ oder die Beschreibung; Zuordnungsregeln lesen sie nach dem Materialnamen.',
      fr: 'Le type ou la description ; les règles de correspondance la lisent après le nom du matériau.',
      it: 'Il tipo o la descrizione; le regole di abbinamento la leggono dopo il nome del materiale.',
      es: 'El tipo o la descripción; las reglas de asignación la leen después del nombre del material.',
    },
  },
  {
    field: 'material',
    unit: null,
    headers: {
      nl: ['Materiaal/Product', 'Materiaal', 'Product'],
      en: ['Material/Product', 'Material', 'Product'],
      de: ['Material/Produkt', 'Material', 'Produkt'],
      fr: ['Matériau/Produit', 'Matériau', 'Produit'],
      it: ['Materiale/Prodotto', 'Materiale', 'Prodotto'],
      es: ['Material/Producto', 'Material', 'Producto'],
    },
    explanation: {
      nl: 'De naam van het materiaal of product zoals de bron die noemt; koppelregels koppelen die aan een materiaal of product.',
      en: 'The material or product name as the source gives it; match rules map it to a material or product.',
      de: 'Der Name des Materials oder Produkts wie in der Quelle; Zuordnungsregeln ordnen ihn einem Material oder Produkt zu.',
      fr: 'Le nom du matériau ou du produit tel que la source le donne ; les règles de correspondance l’associent à un matériau ou un produit.',
      it: 'Il nome del materiale o prodotto come lo dà la fonte; le regole di abbinamento lo associano a un materiale o prodotto.',
      es: 'El nombre del material o producto tal como lo da la fuente; las reglas de asignación lo asignan a un material o producto.',
    },
  },
  {
    field: 'materialId',
    unit: null,
    headers: {
      nl: ['Materiaal/Product-id', 'Materiaal-id', 'Product-id'],
      en: ['Material/Product id', 'Material id', 'Product id', 'materialId'],
      de: ['Material/Produkt-ID', 'Material-ID', 'Produkt-ID'],
      fr: ['Id matériau/produit', 'Id matériau', 'Id produit'],
      it: ['Id materiale/prodotto', 'Id materiale', 'Id prodotto'],
      es: ['Id material/producto', 'Id material', 'Id producto'],
    },
    explanation: {
      nl: 'Het id van een materiaal of product uit een database die het account van het gebouw kan lezen: het element wordt daaraan gekoppeld, wat de naam ook zegt. Een id dat niets leesbaars noemt, wordt genegeerd.',
      en: 'The id of a material or product in a database the building’s account can read: the element is mapped to it, whatever its name says. An id that names nothing readable is ignored.',
      de: 'Die ID eines Materials oder Produkts aus einer Datenbank, die das Konto des Gebäudes lesen kann: das Element wird ihm zugeordnet, was der Name auch sagt. Eine ID, die nichts Lesbares nennt, wird ignoriert.',
      fr: 'L’id d’un matériau ou d’un produit d’une base que le compte du bâtiment peut lire : l’élément y est associé, quel que soit son nom. Un id qui ne désigne rien de lisible est ignoré.',
      it: 'L’id di un materiale o prodotto di una banca dati che l’account dell’edificio può leggere: l’elemento vi viene associato, qualunque sia il nome. Un id che non indica nulla di leggibile viene ignorato.',
      es: 'El id de un material o producto de una base de datos que la cuenta del edificio puede leer: el elemento se asigna a él, diga lo que diga el nombre. Un id que no nombra nada legible se ignora.',
    },
  },
  {
    field: 'classification',
    unit: null,
    headers: {
      nl: ['Classificatiecode'],
      en: ['Classification code'],
      de: ['Klassifikationscode'],
      fr: ['Code de classification'],
      it: ['Codice di classificazione'],
      es: ['Código de clasificación'],
    },
    explanation: {
      nl: 'Een NL-SfB-code (bijvoorbeeld 21.12); een naam erachter mag.',
      en: 'An NL-SfB code (for example 21.12); a name may follow it.',
      de: 'Ein NL-SfB-Code (zum Beispiel 21.12); ein Name darf folgen.',
      fr: 'Un code NL-SfB (par exemple 21.12) ; un nom peut le suivre.',
      it: 'Un codice NL-SfB (per esempio 21.12); può seguirlo un nome.',
      es: 'Un código NL-SfB (por ejemplo 21.12); puede seguirle un nombre.',
    },
  },
  {
    field: 'floor',
    unit: null,
    headers: {
      nl: ['Verdieping', 'Bouwlaag'],
      en: ['Floor', 'Storey'],
      de: ['Geschoss', 'Etage'],
      fr: ['Étage', 'Niveau'],
      it: ['Piano'],
      es: ['Planta', 'Piso'],
    },
    explanation: {
      nl: 'De verdieping.',
      en: 'The floor.',
      de: 'Das Geschoss.',
      fr: 'L’étage.',
      it: 'Il piano.',
      es: 'La planta.',
    },
  },
  {
    field: 'volume',
    unit: 'm³',
    headers: { nl: ['Volume'], en: ['Volume'], de: ['Volumen'], fr: ['Volume'], it: ['Volume'], es: ['Volumen'] },
    explanation: {
      nl: 'Het volume, met een decimale punt of komma; de massa is volume × soortelijk gewicht van het materiaal.',
      en: 'The volume, with a decimal point or comma; the mass is volume × the material’s specific weight.',
      de: 'Das Volumen, mit Dezimalpunkt oder -komma; die Masse ist Volumen × spezifisches Gewicht des Materials.',
      fr: 'Le volume, avec un point ou une virgule décimale ; la masse est le volume × la masse volumique du matériau.',
      it: 'Il volume, con punto o virgola decimale; la massa è volume × peso specifico del materiale.',
      es: 'El volumen, con punto o coma decimal; la masa es volumen × peso específico del material.',
    },
  },
  {
    field: 'area',
    unit: 'm²',
    headers: { nl: ['Oppervlakte'], en: ['Area'], de: ['Fläche'], fr: ['Surface', 'Aire'], it: ['Superficie', 'Area'], es: ['Superficie', 'Área'] },
    explanation: {
      nl: 'De oppervlakte.',
      en: 'The area.',
      de: 'Die Fläche.',
      fr: 'La surface.',
      it: 'La superficie.',
      es: 'La superficie.',
    },
  },
  {
    field: 'length',
    unit: 'm',
    headers: { nl: ['Lengte'], en: ['Length'], de: ['Länge'], fr: ['Longueur'], it: ['Lunghezza'], es: ['Longitud'] },
    explanation: {
      nl: 'De lengte.',
      en: 'The length.',
      de: 'Die Länge.',
      fr: 'La longueur.',
      it: 'La lunghezza.',
      es: 'La longitud.',
    },
  },
  {
    field: 'width',
    unit: 'm',
    headers: { nl: ['Breedte'], en: ['Width'], de: ['Breite'], fr: ['Largeur'], it: ['Larghezza'], es: ['Anchura', 'Ancho'] },
    explanation: {
      nl: 'De breedte (per stuk).',
      en: 'The width (of one piece).',
      de: 'Die Breite (eines Stücks).',
      fr: 'La largeur (d’une pièce).',
      it: 'La larghezza (di un pezzo).',
      es: 'La anchura (de una pieza).',
    },
  },
  {
    field: 'height',
    unit: 'm',
    headers: { nl: ['Hoogte'], en: ['Height'], de: ['Höhe'], fr: ['Hauteur'], it: ['Altezza'], es: ['Altura', 'Alto'] },
    explanation: {
      nl: 'De hoogte (per stuk).',
      en: 'The height (of one piece).',
      de: 'Die Höhe (eines Stücks).',
      fr: 'La hauteur (d’une pièce).',
      it: 'L’altezza (di un pezzo).',
      es: 'La altura (de una pieza).',
    },
  },
  {
    field: 'weight',
    unit: 'kg',
    headers: {
      nl: ['Gewicht', 'Massa'],
      en: ['Weight', 'Mass'],
      de: ['Gewicht', 'Masse'],
      fr: ['Poids', 'Masse'],
      it: ['Peso', 'Massa'],
      es: ['Peso', 'Masa'],
    },
    explanation: {
      nl: 'Het gewicht; waar het gegeven is, is het de massa van het element.',
      en: 'The weight; where it is given, it is the element’s mass.',
      de: 'Das Gewicht; wo es angegeben ist, ist es die Masse des Elements.',
      fr: 'Le poids ; là où il est donné, c’est la masse de l’élément.',
      it: 'Il peso; dove è dato, è la massa dell’elemento.',
      es: 'El peso; donde se da, es la masa del elemento.',
    },
  },
  {
    field: 'amount',
    unit: null,
    headers: { nl: ['Aantal'], en: ['Amount'], de: ['Anzahl', 'Menge'], fr: ['Quantité'], it: ['Quantità'], es: ['Cantidad'] },
    explanation: {
      nl: 'Het aantal gelijke stuks dat de rij beschrijft: volume, oppervlakte, lengte en gewicht worden ermee vermenigvuldigd. Leeg: 1.',
      en: 'The number of identical pieces the row describes: volume, area, length and weight are multiplied by it. Empty: 1.',
      de: 'Die Anzahl gleicher Stücke, die die Zeile beschreibt: Volumen, Fläche, Länge und Gewicht werden damit multipliziert. Leer: 1.',
      fr: 'Le nombre de pièces identiques que décrit la ligne : volume, surface, longueur et poids sont multipliés par lui. Vide : 1.',
      it: 'Il numero di pezzi identici che la riga descrive: volume, superficie, lunghezza e peso vengono moltiplicati per esso. Vuoto: 1.',
      es: 'El número de piezas idénticas que describe la fila: volumen, superficie, longitud y peso se multiplican por él. Vacío: 1.',
    },
  },
  {
    field: 'phase',
    unit: null,
    headers: { nl: ['Fase'], en: ['Phase'], de: ['Phase'], fr: ['Phase'], it: ['Fase'], es: ['Fase'] },
    explanation: {
      nl: 'Nieuw, Bestaand of Sloop (ook in het Engels en Duits: New, Existing, Demolition; Neu, Bestand, Rückbau); iets anders is Bestaand. Leeg: de naam van het werkblad zegt de fase.',
      en: 'New, Existing or Demolition (also in Dutch and German: Nieuw, Bestaand, Sloop; Neu, Bestand, Rückbau); anything else is Existing. Empty: the sheet’s name says the phase.',
      de: 'Neu, Bestand oder Rückbau (auch auf Englisch und Niederländisch: New, Existing, Demolition; Nieuw, Bestaand, Sloop); alles andere ist Bestand. Leer: der Name des Tabellenblatts nennt die Phase.',
      fr: 'New (nouveau), Existing (existant) ou Demolition (démolition) : les phases se lisent en anglais, néerlandais et allemand ; tout autre mot vaut existant. Vide : le nom de la feuille donne la phase.',
      it: 'New (nuovo), Existing (esistente) o Demolition (demolizione): le fasi si leggono in inglese, olandese e tedesco; ogni altra parola vale esistente. Vuoto: il nome del foglio indica la fase.',
      es: 'New (nuevo), Existing (existente) o Demolition (demolición): las fases se leen en inglés, neerlandés y alemán; cualquier otra palabra vale existente. Vacío: el nombre de la hoja indica la fase.',
    },
  },
  {
    field: 'elementClass',
    unit: null,
    headers: {
      nl: ['IFC-klasse'],
      en: ['IFC class', 'IFC entity', 'elementClass'],
      de: ['IFC-Klasse'],
      fr: ['Classe IFC'],
      it: ['Classe IFC'],
      es: ['Clase IFC'],
    },
    explanation: {
      nl: 'De IFC-klasse (bijvoorbeeld IfcWall): zonder bruikbare classificatiecode leidt de classificatie daaruit af.',
      en: 'The IFC class (for example IfcWall): without a usable classification code, the classification is inferred from it.',
      de: 'Die IFC-Klasse (zum Beispiel IfcWall): ohne verwendbaren Klassifikationscode wird die Klassifikation aus ihr abgeleitet.',
      fr: 'La classe IFC (par exemple IfcWall) : sans code de classification utilisable, la classification en est déduite.',
      it: 'La classe IFC (per esempio IfcWall): senza un codice di classificazione utilizzabile, la classificazione ne viene dedotta.',
      es: 'La clase IFC (por ejemplo IfcWall): sin un código de clasificación utilizable, la clasificación se deduce de ella.',
    },
  },
];

/**
 * The header of the column the grid's export adds after the material: the name of the material or product the element
 * is mapped to. Only for reading: the importer knows no such header, so the export imports as the template does.
 */
export const MAPPED_TO_HEADER: Record<SheetLanguage, string> = {
  nl: 'Gekoppeld aan',
  en: 'Mapped to',
  de: 'Zugeordnet zu',
  fr: 'Associé à',
  it: 'Associato a',
  es: 'Asignado a',
};

/** A header as it is compared: Unicode NFC, whitespace runs as one space, trimmed, lower case. */
export function normaliseHeader(value: string): string {
  return value.normalize('NFC').replace(/\s+/gu, ' ').trim().toLowerCase();
}

/** The column of a field. */
export function sheetColumn(field: SheetField): SheetColumn {
  const found = SHEET_COLUMNS.find((column) => column.field === field);
  if (found === undefined) throw new Error(`No sheet column ${field}.`);
  return found;
}

/** The header a field is written with in a language. */
export function sheetHeader(field: SheetField, language: SheetLanguage): string {
  const [first] = sheetColumn(field).headers[language];
  if (first === undefined) throw new Error(`The sheet column ${field} has no header in ${language}.`);
  return first;
}
