import { describe, expect, it } from 'vitest';
import { BuildingFileStatuses as S } from '../../../../../shared/api/enums';
import { timelineOf } from '../../../../../renderer/views/buildings/file-timeline';

const at = (minute: number) => `2026-01-01T10:${String(minute).padStart(2, '0')}:00.000Z`;

function states(seen: Parameters<typeof timelineOf>[0], status: number): string[] {
  return timelineOf(seen, status).map((step) => `${step.stage}:${step.state}`);
}

describe('the timeline of a source file', () => {
  it('marks the stages done, under way and to come for each status', () => {
    expect(states([], S.Creating)).toEqual(['uploaded:current', 'importing:waiting', 'imported:waiting', 'refining:waiting', 'mapped:waiting']);
    expect(states([], S.Uploaded)).toEqual(['uploaded:done', 'importing:current', 'imported:waiting', 'refining:waiting', 'mapped:waiting']);
    expect(states([], S.Importing)).toEqual(['uploaded:done', 'importing:current', 'imported:waiting', 'refining:waiting', 'mapped:waiting']);
    expect(states([], S.Imported)).toEqual(['uploaded:done', 'importing:done', 'imported:done', 'refining:current', 'mapped:waiting']);
    for (const status of [S.Refining, S.Refined, S.Mapping]) {
      expect(states([], status)).toEqual(['uploaded:done', 'importing:done', 'imported:done', 'refining:current', 'mapped:waiting']);
    }
    expect(states([], S.Mapped)).toEqual(['uploaded:done', 'importing:done', 'imported:done', 'refining:done', 'mapped:done']);
    expect(states([], 42)).toEqual(['uploaded:waiting', 'importing:waiting', 'imported:waiting', 'refining:waiting', 'mapped:waiting']);
  });

  it('gives each stage the time its first status was seen, and none to a stage passed unseen', () => {
    const steps = timelineOf(
      [
        { status: S.Uploaded, at: at(0) },
        { status: S.Refining, at: at(3) },
        { status: S.Mapping, at: at(4) },
        { status: S.Mapped, at: at(5) },
      ],
      S.Mapped,
    );
    expect(steps.map((step) => step.at)).toEqual([at(0), null, null, at(3), at(5)]);
  });

  it('puts a failure at the stage under way when it came, the import when nothing was seen before', () => {
    const failed = (before: number[]) =>
      states([...before.map((status, index) => ({ status, at: at(index) })), { status: S.Error, at: at(9) }], S.Error).find((step) => step.endsWith(':failed'));
    expect(failed([S.Uploaded])).toBe('importing:failed');
    expect(failed([S.Uploaded, S.Importing])).toBe('importing:failed');
    expect(failed([S.Imported])).toBe('refining:failed');
    expect(failed([S.Refining])).toBe('refining:failed');
    expect(failed([S.Mapped])).toBe('refining:failed');
    expect(failed([])).toBe('importing:failed');
    expect(states([{ status: S.Refining, at: at(1) }], S.UnknownImportFile)).toEqual([
      'uploaded:done',
      'importing:done',
      'imported:done',
      'refining:failed',
      'mapped:waiting',
    ]);
  });
});
