import { describe, expect, it } from 'vitest';
import { PackedIdsBuilder, type PackedIds } from '../../../../../renderer/db/packed-ids';
import { groupedView, sameView, type ElementView } from '../../../../../renderer/views/files/element-groups';
import { PartKind } from '../../../../../renderer/views/files/element-parts';

const WALL = '2O2Fr$t4X7Zf8NOew3FLOH';
const SLAB = '0K7w7JxKn2Bx5dM9vhT_Qa';
const ROOF = '3cUkl32yn9qRSPvBJVyWYp';

function packed(ids: readonly string[]): PackedIds {
  const builder = new PackedIdsBuilder();
  for (const id of ids) builder.add(id);
  return builder.build();
}

/** A view's entries as lists of ids, with the kind of parts each groups. */
function entries(view: ElementView): { ids: string[]; kind: number }[] {
  const { groups, ids } = view;
  if (groups === null) return [...ids].map((id) => ({ ids: [id], kind: PartKind.None }));
  return Array.from(groups.ends, (end, entry) => ({ ids: ids.slice(entry === 0 ? 0 : groups.ends[entry - 1], end), kind: groups.kinds[entry] ?? -1 }));
}

describe('a view grouped by split element', () => {
  it('keeps a list without parts as it is', async () => {
    const ids = packed(['E1', 'E2', 'W-L1', 'W-L2', WALL]);
    const view = await groupedView(ids, false);
    expect(view.groups).toBeNull();
    expect(view.ids).toBe(ids);
  });

  it('puts each element’s parts together in the set’s order, a lone part too, and spreadsheet ids apart', async () => {
    // In id order, as a server lists them: L10 before L2.
    const ids = packed(['E1', `${ROOF}-C1`, `${SLAB}-L1`, `${SLAB}-L10`, `${SLAB}-L2`, 'W-L1', 'W-L2', `${WALL}-L1`]);
    const view = await groupedView(ids, false);
    expect(entries(view)).toEqual([
      { ids: ['E1'], kind: PartKind.None },
      { ids: [`${ROOF}-C1`], kind: PartKind.Constituent },
      { ids: [`${SLAB}-L1`, `${SLAB}-L2`, `${SLAB}-L10`], kind: PartKind.Layer },
      { ids: ['W-L1'], kind: PartKind.None },
      { ids: ['W-L2'], kind: PartKind.None },
      { ids: [`${WALL}-L1`], kind: PartKind.Layer },
    ]);
    expect(view.open).toBe(false);
  });

  it('gathers parts listed apart where the first of them is', async () => {
    const view = await groupedView(packed([`${WALL}-L2`, 'E1', `${SLAB}-C1`, `${WALL}-L1`, 'E2', `${SLAB}-C2`, `${WALL}-C1`]), true);
    expect(entries(view)).toEqual([
      { ids: [`${WALL}-L1`, `${WALL}-L2`, `${WALL}-C1`], kind: PartKind.Layer },
      { ids: ['E1'], kind: PartKind.None },
      { ids: [`${SLAB}-C1`, `${SLAB}-C2`], kind: PartKind.Constituent },
      { ids: ['E2'], kind: PartKind.None },
    ]);
    expect(view.open).toBe(true);
  });

  it('groups a large list in steps, the same as a small one', async () => {
    const listed: string[] = [];
    for (let index = 0; index < 60_000; index += 1) {
      const globalId = `1${String(index).padStart(21, '0')}`;
      if (index % 3 === 0) listed.push(`${globalId}-L1`, `${globalId}-L2`);
      else listed.push(globalId);
    }
    const view = await groupedView(packed(listed), false);
    expect(view.ids.length).toBe(80_000);
    expect(view.groups?.ends.length).toBe(60_000);
    expect(view.groups?.kinds.filter((kind) => kind === PartKind.Layer).length).toBe(20_000);
    expect(sameView(view, await groupedView(packed(listed), false))).toBe(true);
    expect(sameView(view, await groupedView(packed(listed), true))).toBe(false);
  });
});
