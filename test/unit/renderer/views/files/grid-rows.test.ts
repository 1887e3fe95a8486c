import { describe, expect, it } from 'vitest';
import { PackedIdsBuilder } from '../../../../../renderer/db/packed-ids';
import { groupedView } from '../../../../../renderer/views/files/element-groups';
import { PartKind } from '../../../../../renderer/views/files/element-parts';
import { GridRows, type GridRow } from '../../../../../renderer/views/files/grid-rows';

const WALL = '2O2Fr$t4X7Zf8NOew3FLOH';
const SLAB = '0K7w7JxKn2Bx5dM9vhT_Qa';
const IDS = ['E1', `${WALL}-L1`, `${WALL}-L2`, `${WALL}-L3`, 'E2', `${SLAB}-C1`, 'E3'];

async function rowsOf(open: boolean, chosen: ReadonlyMap<string, boolean> = new Map()): Promise<GridRows> {
  const builder = new PackedIdsBuilder();
  for (const id of IDS) builder.add(id);
  return GridRows.of(await groupedView(builder.build(), open), chosen);
}

/** Each row in short: an element's id (a part's after its parent's, `>`), or a parent's GlobalId, parts and state. */
function described(rows: GridRows): string[] {
  return Array.from({ length: rows.length }, (_, index) => {
    const row = rows.at(index) as GridRow;
    if (row.kind === 'parent') return `${row.id} ${row.end - row.first} ${row.partKind === PartKind.Layer ? 'layers' : 'materials'} ${row.open ? 'open' : 'closed'}`;
    return row.parent === null ? row.id : `${row.parent.id}@${row.parent.row} > ${row.id}`;
  });
}

describe('the rows of a grouped view', () => {
  it('shows each split element as one closed row, unless the view opens them', async () => {
    expect(described(await rowsOf(false))).toEqual(['E1', `${WALL} 3 layers closed`, 'E2', `${SLAB} 1 materials closed`, 'E3']);
    expect(described(await rowsOf(true))).toEqual([
      'E1',
      `${WALL} 3 layers open`,
      `${WALL}@1 > ${WALL}-L1`,
      `${WALL}@1 > ${WALL}-L2`,
      `${WALL}@1 > ${WALL}-L3`,
      'E2',
      `${SLAB} 1 materials open`,
      `${SLAB}@6 > ${SLAB}-C1`,
      'E3',
    ]);
  });

  it('opens and closes the elements the user chose, whatever the view’s default', async () => {
    expect(described(await rowsOf(false, new Map([[SLAB, true]])))).toEqual(['E1', `${WALL} 3 layers closed`, 'E2', `${SLAB} 1 materials open`, `${SLAB}@3 > ${SLAB}-C1`, 'E3']);
    expect(described(await rowsOf(true, new Map([[WALL, false]])))).toEqual(['E1', `${WALL} 3 layers closed`, 'E2', `${SLAB} 1 materials open`, `${SLAB}@3 > ${SLAB}-C1`, 'E3']);
  });

  it('opens and closes one split element of the rows, the rows after it moving on', async () => {
    const rows = await rowsOf(false);
    const opened = rows.toggled(1, true);
    expect(described(opened)).toEqual(described(await rowsOf(false, new Map([[WALL, true]]))));
    expect(described(opened.toggled(6, true))).toEqual(described(await rowsOf(true)));
    expect(described(opened.toggled(1, false))).toEqual(described(rows));
    expect(rows.toggled(0, true)).toBe(rows);
    expect(opened.toggled(1, true)).toBe(opened);
  });

  it('stands a parent row for its parts when rows are selected', async () => {
    const closed = await rowsOf(false);
    expect(closed.idsBetween(1, 1)).toEqual([`${WALL}-L1`, `${WALL}-L2`, `${WALL}-L3`]);
    expect(closed.idsBetween(2, 0)).toEqual(['E1', `${WALL}-L1`, `${WALL}-L2`, `${WALL}-L3`, 'E2']);
    const open = await rowsOf(true);
    expect(open.idsBetween(3, 5)).toEqual([`${WALL}-L2`, `${WALL}-L3`, 'E2']);
    expect(open.idsBetween(1, 1)).toEqual([`${WALL}-L1`, `${WALL}-L2`, `${WALL}-L3`]);
    expect(open.at(open.length)).toBeUndefined();
  });
});
