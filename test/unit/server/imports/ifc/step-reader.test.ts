/**
 * The STEP reader against web-ifc (server/imports/ifc/step-reader.ts): on every fixture of test/fixtures/ifc and on
 * synthetic models, each raw line, each type's ids and each type name equal web-ifc's, and the extraction through the
 * STEP reader gives the same element rows as the extraction through web-ifc's reader.
 */
import { readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractElements, type ExtractSink } from '../../../../../server/imports/ifc/extract';
import { ElementGeometry } from '../../../../../server/imports/ifc/geometry';
import { LineReader, type LineSource } from '../../../../../server/imports/ifc/raw';
import { checkIfcFile } from '../../../../../server/imports/ifc/step-file';
import { StepLineReader } from '../../../../../server/imports/ifc/step-reader';
import { WebIfc, type IfcAPI } from '../../../../../server/imports/ifc/web-ifc';
import type { ImportedElement } from '../../../../../server/imports/imported-element';
import { syntheticElementCount, writeSyntheticIfc } from '../../../../bench/synthetic-ifc';
import { IFC_FIXTURES } from '../../../../fixtures/files';

let api: IfcAPI;
let directory: string;

beforeAll(async () => {
  api = new WebIfc.IfcAPI();
  await api.Init(undefined, true);
  api.SetLogLevel(WebIfc.LogLevel.LOG_LEVEL_OFF);
  directory = await mkdtemp(path.join(tmpdir(), 'step-reader-'));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** Opens the file in web-ifc and with the STEP reader, and hands both to `use`. */
async function withBoth<T>(filePath: string, use: (web: LineReader, step: StepLineReader, modelId: number) => Promise<T> | T): Promise<T> {
  const modelId = api.OpenModel(new Uint8Array(await readFile(filePath)));
  const { schema } = await checkIfcFile(filePath);
  const step = StepLineReader.open(filePath, schema);
  try {
    return await use(new LineReader(api, modelId), step, modelId);
  } finally {
    step.close();
    api.CloseModel(modelId);
  }
}

async function extract(reader: LineSource, modelId: number): Promise<{ elements: ImportedElement[]; rejected: string[] }> {
  const elements: ImportedElement[] = [];
  const sink: ExtractSink = {
    start: () => undefined,
    batch: async (batch) => {
      elements.push(...batch);
    },
  };
  const { rejected } = await extractElements(reader, async () => new ElementGeometry(api, modelId), sink, 100);
  return { elements, rejected };
}

const fixtures = readdirSync(IFC_FIXTURES).filter((name) => name.endsWith('.ifc'));

describe.each(fixtures)('%s', (name) => {
  const filePath = path.join(IFC_FIXTURES, name);

  it('every raw line, type name and type’s ids equal web-ifc’s', async () => {
    await withBoth(filePath, (web, step, modelId) => {
      const all = api.GetAllLines(modelId);
      expect(step.size).toBe(all.size());
      const ids: number[] = [];
      for (let index = 0; index < all.size(); index++) ids.push(all.get(index));
      web.prefetch(ids);
      step.prefetch(ids);
      // Collected rather than asserted one by one: tens of thousands of lines.
      const differing: string[] = [];
      for (const id of ids) {
        const line = web.line(id);
        if (!isDeepStrictEqual(step.line(id), line)) differing.push(`#${id}`);
        else if (line !== null && step.typeName(line.type) !== web.typeName(line.type)) differing.push(`#${id} ${web.typeName(line.type)}`);
      }
      expect(differing.slice(0, 10)).toEqual([]);
      for (const type of [WebIfc.IFCELEMENT, WebIfc.IFCFEATUREELEMENT, WebIfc.IFCPRESENTATIONLAYERASSIGNMENT, WebIfc.IFCPROPERTYSET, WebIfc.IFCRELDEFINESBYPROPERTIES]) {
        expect(step.idsOfType(type, true)).toEqual(web.idsOfType(type, true));
        expect(step.idsOfType(type)).toEqual(web.idsOfType(type));
      }
    });
  }, 60_000);

  it('the extraction gives the same element rows through either reader', async () => {
    await withBoth(filePath, async (web, step, modelId) => {
      const throughWebIfc = await extract(web, modelId);
      const throughStep = await extract(step, modelId);
      expect(throughWebIfc.elements.length).toBeGreaterThan(0);
      expect(throughStep).toStrictEqual(throughWebIfc);
    });
  }, 60_000);
});

describe('synthetic models', () => {
  it.each([
    ['with quantity sets, in millimetres and grams', { walls: 1_200, lengthUnit: 'millimetre', massUnit: 'gram' }],
    ['without quantity sets (volumes from geometry)', { walls: 150, quantitySets: false }],
  ] as const)('%s: the same element rows through either reader', async (_, options) => {
    const filePath = path.join(directory, `synthetic-${options.walls}.ifc`);
    await writeSyntheticIfc(filePath, options);
    await withBoth(filePath, async (web, step, modelId) => {
      const throughWebIfc = await extract(web, modelId);
      const throughStep = await extract(step, modelId);
      expect(throughWebIfc.elements).toHaveLength(syntheticElementCount(options.walls));
      expect(throughStep).toStrictEqual(throughWebIfc);
    });
  }, 60_000);

  it('a model whose elements all carry their volumes never opens the geometry', async () => {
    const filePath = path.join(directory, 'quantities.ifc');
    await writeSyntheticIfc(filePath, { walls: 600 });
    const step = StepLineReader.open(filePath, 'IFC4');
    let opened = false;
    try {
      const outcome = await extractElements(
        step,
        async () => {
          opened = true;
          throw new Error('the geometry was opened');
        },
        { start: () => undefined, batch: async () => undefined },
        100,
      );
      expect(outcome).toMatchObject({ imported: syntheticElementCount(600), rejected: [] });
      expect(opened).toBe(false);
    } finally {
      step.close();
    }
  });
});
