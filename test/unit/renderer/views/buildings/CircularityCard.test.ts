// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { h } from 'vue';
import { BuildingFileStatuses, BuildingLevel, ElementType } from '../../../../../shared/api/enums';
import type { BuildingCircularInformation, BuildingFileStatusResponse } from '../../../../../shared/api/schemas';
import CircularityCard from '../../../../../renderer/views/buildings/CircularityCard.vue';
import { all, byTestId, eventually } from '../../dom';
import { formatStatusMessage } from '../../../../../shared/status-messages';
import { writeFileStatus } from '../../../../../renderer/db/apply-pull';
import { CacheDb } from '../../../../../renderer/db/cache-db';
import { BUILDING, CONCRETE, element, FILE, mountAt, releasePage, seedCache } from '../files/file-fixtures';

afterEach(releasePage);

const LAYER = { id: BuildingLevel.Skin.id, name: 'Skin' };
const MAPPED = { type: ElementType.Material, id: CONCRETE };

function circular(score: number | null): BuildingCircularInformation {
  return {
    circularityConstructionPhase: score,
    circularityUsagePhase: score,
    circularityEndOfLifePhase: score,
    ciScoreBuilding: score,
    correctionUnknownMaterials: score,
    correctionUnknownBrandLayer: score,
    madasterCiScore: score,
  } as BuildingCircularInformation;
}

async function mountCard(
  score: number | null,
  elements = [element('E1'), element('E2'), element('E3', { mapping: MAPPED })],
  status: number = BuildingFileStatuses.Mapped,
  statusMessage: string | null = null,
) {
  const connection = await seedCache(elements, status);
  if (statusMessage !== null) {
    const db = new CacheDb(connection.id);
    const answer = { id: FILE, status: status as BuildingFileStatusResponse['status'], statusMessage, elementProcessedCount: 0, elementCount: elements.length };
    await writeFileStatus(db, BUILDING, answer, '2026-01-02T00:00:00.000Z');
    db.close();
  }
  await mountAt(connection, `/buildings/${BUILDING}`, { render: () => h(CircularityCard, { circular: circular(score) }) });
}

const gaps = (): Array<[string, string]> => all('ci-gap').map((gap) => [gap.dataset['kind'] ?? '', gap.textContent?.replace(/\s+/g, ' ').trim() ?? '']);

describe('the circularity card', { timeout: 30_000 }, () => {
  it('carries the score as a number, and explains nothing while every element has what it needs', async () => {
    await mountCard(0.47, [element('E1', { mapping: MAPPED, brandLayerMatch: LAYER }), element('E2', { mapping: MAPPED, brandLayerMatch: LAYER })]);
    await eventually(() => expect(byTestId('ci-gauge')?.dataset['ciScore']).toBe('0.47'));
    expect(byTestId('ci-gauge')?.dataset['value']).toBe('47%');
    expect(byTestId('ci-no-score')).toBeNull();
    expect(byTestId('ci-gaps')).toBeNull();
  });

  it('writes a score below 1 % with one decimal, as the passport does, never as 0 %', async () => {
    await mountCard(0.003);
    await eventually(() => expect(byTestId('ci-gauge')?.dataset['value']).toBe('0.3%'));
  });

  it('says why the score is missing with numbers from the cached elements, and links to the file’s report', async () => {
    await mountCard(null, [element('E1'), element('E2', { brandLayerMatch: LAYER }), element('E3', { mapping: MAPPED }), element('E4', { mapping: MAPPED, brandLayerMatch: LAYER })]);
    await eventually(() =>
      expect(gaps()).toEqual([
        ['no-layer', 'school.ifc: 2 of 4 elements have a building layer. Open the import report'],
        ['no-material', 'school.ifc: 2 of 4 elements have no material. Open the import report'],
      ]),
    );
    expect(byTestId('ci-gauge')?.dataset['ciScore']).toBe('');
    expect(all('ci-gap-report')[0]?.getAttribute('href')).toBe(`#/buildings/${BUILDING}/files/${FILE}/report`);
  });

  it('says so when no element has a building layer', async () => {
    await mountCard(null, [element('E1', { mapping: MAPPED }), element('E2', { mapping: MAPPED })]);
    await eventually(() => expect(gaps()).toEqual([['no-layer', 'school.ifc: 0 of 2 elements have a building layer. Open the import report']]));
  });

  it('names a source file that is not Mapped yet', async () => {
    await mountCard(null, [element('E1')], BuildingFileStatuses.Refining);
    await eventually(() => expect(gaps()).toEqual([['not-mapped', 'school.ifc is not Mapped yet (Refining): its elements count once it is.']]));
  });

  it('says beside the corrections how many elements count, and why the others do not, with the file’s report', async () => {
    const summary = formatStatusMessage({
      kind: 'report-summary',
      counted: 14,
      elements: 34,
      active: true,
      notCounted: [{ reason: 'no-mass', elements: 20 }],
      mappedByKeyword: 0,
      measuredFromGeometry: 0,
      layerFromNames: 0,
      layerFromClass: 0,
    });
    await mountCard(0.41, [element('E1', { mapping: MAPPED })], BuildingFileStatuses.Mapped, summary);
    await eventually(() => expect(byTestId('ci-counted')?.dataset['counted']).toBe('14'));
    expect(byTestId('ci-counted')?.dataset['elements']).toBe('34');
    expect(byTestId('ci-counted')?.textContent).toContain('Counted elements');
    expect(byTestId('ci-counted')?.querySelector('[data-testid="ci-value"]')?.textContent).toBe('14 of 34');
    // The corrections keep the API's meaning: the material of an element without a mass is known.
    expect(all('ci-correction').map((row) => row.querySelector('[data-testid="ci-value"]')?.textContent)).toEqual(['41%', '41%']);
    expect(all('ci-not-counted-file').map((row) => row.textContent?.replace(/\s+/g, ' ').trim())).toEqual([
      'school.ifc: 20 have no mass (their material has no specific weight). Open the import report',
    ]);
    expect(byTestId('ci-counts-report')?.getAttribute('href')).toBe(`#/buildings/${BUILDING}/files/${FILE}/report`);
  });

  it('beside a score, still says how many elements have no material when no summary speaks for the file, with the report', async () => {
    const elements = Array.from({ length: 34 }, (_, index) => element(`E${index + 1}`, index < 4 ? { mapping: MAPPED, brandLayerMatch: LAYER } : { brandLayerMatch: LAYER }));
    await mountCard(0.01, elements);
    await eventually(() => expect(gaps()).toEqual([['no-material', 'school.ifc: 30 of 34 elements have no material. Open the import report']]));
    expect(byTestId('ci-gauge')?.dataset['value']).toBe('1%');
    expect(byTestId('ci-no-score')).toBeNull();
    expect(all('ci-gap-report')[0]?.getAttribute('href')).toBe(`#/buildings/${BUILDING}/files/${FILE}/report`);
  });

  it('shows no counts where the server’s summaries cannot be read', async () => {
    await mountCard(0.41, [element('E1', { mapping: MAPPED })], BuildingFileStatuses.Mapped, 'Verwerkt door een andere server.');
    await eventually(() => expect(byTestId('ci-gauge')?.dataset['ciScore']).toBe('0.41'));
    expect(byTestId('ci-counted')).toBeNull();
    expect(byTestId('ci-not-counted')).toBeNull();
  });
});
