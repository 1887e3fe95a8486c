/**
 * The elements list's OData options answer the same on SQLite and PostgreSQL: strings compare and sort by code point
 * (whatever the database's locale), tolower/toupper fold beyond ASCII, LIKE wildcards are plain characters, nulls sort
 * as OData says, and `$top`/`$skip` pages are stable. The expectations are fixed, so both projects check the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPortfolioWithBuilding, startTestServer, type TestServer } from './harness';
import { testDatabase } from './test-database';

const api = '/api/v2.3';
const names = ['apple', 'Apple', 'APPLE', 'Zebra', 'äpfel', 'Ärger', 'Straße', '100% wool', '100 wool', 'a_b', 'aXb', '😀 smile', 'ǅungla'];

let test: TestServer;
let elements: string;
beforeAll(async () => {
  test = await startTestServer();
  const { buildingId } = await createPortfolioWithBuilding(test);
  const files = `${api}/buildings/${buildingId}/files`;
  const fileId = ((await test.request({ method: 'POST', url: files, payload: { type: 0 } })).json() as { id: string }).id;
  await test.request({ method: 'POST', url: `${files}/${fileId}/setimporting` });
  elements = `${files}/${fileId}/elements`;
  for (const [index, name] of names.entries()) {
    const created = await test.request({
      method: 'POST',
      url: elements,
      payload: { id: `E-${String(index).padStart(2, '0')}`, name, volume: index % 3 === 0 ? null : index },
    });
    expect(created.statusCode, created.body).toBe(201);
  }
  await test.request({ method: 'POST', url: elements, payload: { id: 'E-99', name: null } });
});
afterAll(async () => {
  await test?.close();
});

/** The names of the elements a query answers, in order. */
async function query(options: Record<string, string>): Promise<(string | null)[]> {
  const response = await test.request({ method: 'GET', url: elements, query: { ...options, $select: 'name' } });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { name: string | null }[]).map((element) => element.name);
}

describe(`OData on ${testDatabase}`, () => {
  it('sorts by code point, nulls first ascending and last descending', async () => {
    // By code point: digits, capitals, '_' (U+005F) after 'X', then 'Ä' (U+00C4) before 'ä' (U+00E4) and the rest.
    const ascending = ['100 wool', '100% wool', 'APPLE', 'Apple', 'Straße', 'Zebra', 'aXb', 'a_b', 'apple', 'Ärger', 'äpfel', 'ǅungla', '😀 smile'];
    expect(await query({ $orderby: 'name' })).toEqual([null, ...ascending]);
    expect(await query({ $orderby: 'name desc' })).toEqual([...[...ascending].reverse(), null]);
    expect(await query({ $filter: "name gt 'Zebra'", $orderby: 'name' })).toEqual(ascending.slice(ascending.indexOf('Zebra') + 1));
  });

  it('folds case beyond ASCII and compares exactly', async () => {
    expect(await query({ $filter: "tolower(name) eq 'apple'" })).toEqual(['apple', 'Apple', 'APPLE']);
    expect(await query({ $filter: "toupper(name) eq 'ÄRGER'" })).toEqual(['Ärger']);
    expect(await query({ $filter: "tolower(name) eq 'äpfel'" })).toEqual(['äpfel']);
    expect(await query({ $filter: "name eq 'apple'" })).toEqual(['apple']);
    expect(await query({ $filter: "tolower(name) gt 'z'", $orderby: 'name' })).toEqual(['Zebra', 'Ärger', 'äpfel', 'ǅungla', '😀 smile']);
  });

  it('treats LIKE wildcards as plain characters', async () => {
    expect(await query({ $filter: "contains(name,'%')" })).toEqual(['100% wool']);
    expect(await query({ $filter: "startswith(name,'a_')" })).toEqual(['a_b']);
    expect(await query({ $filter: "endswith(name,'smile')" })).toEqual(['😀 smile']);
    // contains() of a null name is null, and so is its negation: the element without a name is in neither answer.
    expect(await query({ $filter: "not contains(name,'a')", $orderby: 'name' })).toEqual(['100 wool', '100% wool', 'APPLE', 'Apple', 'Ärger', 'äpfel', '😀 smile']);
  });

  it('pages with $top and $skip in a stable order, with or without $orderby', async () => {
    const all = await query({});
    expect(all).toEqual([...names, null]);
    const pages: (string | null)[] = [];
    for (let skip = 0; skip < all.length; skip += 4) pages.push(...(await query({ $top: '4', $skip: String(skip) })));
    expect(pages).toEqual(all);
    const byVolume = await query({ $orderby: 'volume desc' });
    const pagedByVolume: (string | null)[] = [];
    for (let skip = 0; skip < byVolume.length; skip += 3) pagedByVolume.push(...(await query({ $orderby: 'volume desc', $top: '3', $skip: String(skip) })));
    expect(pagedByVolume).toEqual(byVolume);
  });
});
