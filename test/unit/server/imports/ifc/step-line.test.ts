/**
 * The STEP reader's line parsing (server/imports/ifc/step-line.ts, step-string.ts, step-index.ts): every token kind in
 * the shape web-ifc's GetRawLinesData gives it, and the file scan that finds each entity however the file is laid out.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStepArguments, typeCodeOf } from '../../../../../server/imports/ifc/step-line';
import { StepLineReader } from '../../../../../server/imports/ifc/step-reader';
import { decodeStepString } from '../../../../../server/imports/ifc/step-string';
import { WebIfc } from '../../../../../server/imports/ifc/web-ifc';
import { UnknownImportFileError } from '../../../../../server/imports/imported-element';

const { ENUM, INTEGER, LABEL, REAL, REF, STRING } = WebIfc;

function parse(text: string): unknown {
  const bytes = Buffer.from(text, 'utf8');
  return parseStepArguments(bytes, 0, bytes.length);
}

function decode(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  return decodeStepString(bytes, 0, bytes.length);
}

describe('one line', () => {
  it('reads every token kind', () => {
    expect(parse("(#12,'a',.ELEMENT.,1.5,-2.E-3,42,-7,$);")).toEqual([
      { type: REF, value: 12 },
      { type: STRING, value: 'a' },
      { type: ENUM, value: 'ELEMENT' },
      { type: REAL, value: '1.5' },
      { type: REAL, value: '-2.E-3' },
      { type: INTEGER, value: 42 },
      { type: INTEGER, value: -7 },
      null,
    ]);
  });

  it('reads logical values as web-ifc does: .T. true, .F. false, .U. undefined', () => {
    expect(parse('(.T.,.F.,.U.);')).toEqual([
      { type: ENUM, value: true },
      { type: ENUM, value: false },
      { type: ENUM, value: undefined },
    ]);
  });

  it('reads nested lists, empty ones included', () => {
    expect(parse('((#1,#2),((1.,2.),()),$);')).toEqual([
      [
        { type: REF, value: 1 },
        { type: REF, value: 2 },
      ],
      [[{ type: REAL, value: '1.' }, { type: REAL, value: '2.' }], []],
      null,
    ]);
  });

  it('reads typed values bare, with the type code', () => {
    expect(parse("(IFCLENGTHMEASURE(2.5),IFCLABEL('x'),IFCBOOLEAN(.T.),IFCINTEGER(3),IFCTEXT($));")).toEqual([
      { type: LABEL, typecode: WebIfc.IFCLENGTHMEASURE, value: '2.5' },
      { type: LABEL, typecode: WebIfc.IFCLABEL, value: 'x' },
      { type: LABEL, typecode: WebIfc.IFCBOOLEAN, value: true },
      { type: LABEL, typecode: WebIfc.IFCINTEGER, value: 3 },
      { type: LABEL, typecode: WebIfc.IFCTEXT, value: null },
    ]);
    expect(typeCodeOf('IfcWall')).toBe(WebIfc.IFCWALL);
  });

  it('leaves `*` out, so the arguments after it move forward (raw.ts)', () => {
    expect(parse('(*,.LENGTHUNIT.,$,.METRE.);')).toEqual([{ type: ENUM, value: 'LENGTHUNIT' }, null, { type: ENUM, value: 'METRE' }]);
  });

  it('skips comments and line breaks inside a line; a `;` or `)` inside a string ends nothing', () => {
    expect(parse("(\n  'a;b)c', /* a comment; with ) */\r\n  #3\n);")).toEqual([
      { type: STRING, value: 'a;b)c' },
      { type: REF, value: 3 },
    ]);
  });

  it('gives no arguments for an entity without any, as web-ifc gives no line', () => {
    expect(parse('();')).toBeNull();
  });
});

describe('strings, decoded as web-ifc decodes them', () => {
  it.each([
    ['plain', 'plain'],
    ["it''s", "it's"],
    ['back\\\\slash', 'back\\slash'],
    ['m\\X2\\00B2\\X0\\', 'm²'],
    ['\\X2\\004D00FC006C006C\\X0\\er', 'Müller'],
    ['\\X4\\0001F600\\X0\\', '😀'],
    ['caf\\X\\E9', 'café'],
    ['\\S\\D', 'Ä'],
    ['\\PB\\\\S\\9', 'š'],
    ['raw UTF-8: é', 'raw UTF-8: é'],
    ['bad \\Q escape', ''],
    ['a lone \' quote', ''],
  ])('%s', (text, expected) => {
    expect(decode(text)).toBe(expected);
  });

  it('decode as web-ifc’s own DecodeText does', async () => {
    const api = new WebIfc.IfcAPI();
    await api.Init(undefined, true);
    const samples = ["it''s", 'a\\\\b', 'm\\X2\\00B2\\X0\\', '\\X4\\0001F600\\X0\\', 'caf\\X\\E9', '\\S\\D', '\\PB\\\\S\\9', 'é', 'bad \\Q', 'x\\X2\\00e9\\X0\\', 'x\\X\\e9', 'odd\\X2\\00E\\X0\\', 'open\\X2\\00E9', 'C\\X\\8E', 'C\\X\\8E\\X\\E9', '\\X\\E9\\X\\8E', '\\X\\E9'];
    for (const sample of samples) expect(decode(sample), sample).toBe(api.DecodeText(sample) as string);
  });

  it('reads \\X\\ as Mac Roman from the first one in 0x80–0x9F of a string on', () => {
    expect(decode('\\X\\E9')).toBe('é');
    expect(decode('\\X\\E9C\\X\\8E\\X\\E9')).toBe('éCéÈ');
  });
});

describe('the file scan', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'step-line-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  async function reader(data: string): Promise<StepLineReader> {
    const file = path.join(directory, `${Math.random().toString(36).slice(2)}.ifc`);
    await writeFile(file, `ISO-10303-21;\nHEADER;\nFILE_SCHEMA(('IFC4'));\nENDSEC;\nDATA;\n${data}\nENDSEC;\nEND-ISO-10303-21;\n`);
    return StepLineReader.open(file, 'IFC4');
  }

  it('finds entities spread over several lines, with comments between them and `;` in strings', async () => {
    const lines = await reader("/* first; */ #1= IFCWALL('a;b',\n$,\n'c''d;');\n/* between */\n#2\n=\nIFCSLAB ( #1 ) ; #10=IFCLABELX(1);");
    try {
      expect(lines.size).toBe(3);
      expect(lines.line(1)).toEqual({ ID: 1, type: WebIfc.IFCWALL, arguments: [{ type: STRING, value: 'a;b' }, null, { type: STRING, value: "c'd;" }] });
      expect(lines.line(2)).toEqual({ ID: 2, type: WebIfc.IFCSLAB, arguments: [{ type: REF, value: 1 }] });
      expect(lines.line(3)).toBeNull();
      expect(lines.idsOfType(WebIfc.IFCELEMENT, true)).toEqual([1, 2]);
      expect(lines.idsOfType(WebIfc.IFCELEMENT)).toEqual([]);
      expect(lines.typeName(WebIfc.IFCWALL)).toBe('IfcWall');
    } finally {
      lines.close();
    }
  });

  it('finds lines whose ids are not in ascending order', async () => {
    const lines = await reader("#5=IFCWALL('five');#2=IFCWALL('two');#9=IFCWALL('nine');");
    try {
      expect([5, 2, 9].map((id) => lines.line(id)?.arguments[0])).toEqual([
        { type: STRING, value: 'five' },
        { type: STRING, value: 'two' },
        { type: STRING, value: 'nine' },
      ]);
      expect(lines.idsOfType(WebIfc.IFCWALL)).toEqual([2, 5, 9]);
    } finally {
      lines.close();
    }
  });

  it('leaves a complex entity instance out, and reads the lines around it', async () => {
    const lines = await reader("#1=IFCWALL('a');\n#3=(IFCNAMEDUNIT(*,.LENGTHUNIT.)IFCSIUNIT(.MILLI.,.METRE.));\n#4=IFCSLAB('b');");
    try {
      expect(lines.line(3)).toBeNull();
      expect([1, 4].map((id) => lines.line(id)?.arguments[0])).toEqual([
        { type: STRING, value: 'a' },
        { type: STRING, value: 'b' },
      ]);
    } finally {
      lines.close();
    }
  });

  it('names the line of an entity it cannot read', async () => {
    await expect(reader("#1=IFCWALL('a');\n#2 IFCWALL('b');")).rejects.toThrow(new UnknownImportFileError("Line 7: #2 is not followed by '='."));
    const lines = await reader("#1=IFCWALL('a');\n#2=IFCWALL(.ELEMENT);");
    try {
      expect(() => lines.line(2)).toThrow(new UnknownImportFileError('Line 7 (#2) cannot be read: an enumeration (.X.) never ends.'));
    } finally {
      lines.close();
    }
  });
});
