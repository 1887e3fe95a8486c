// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { MatchType } from '../../../../../shared/api/enums';
import type { Material, MaterialMatch } from '../../../../../shared/api/schemas';
import { isLocalId } from '../../../../../renderer/db/schema';
import { startApiServer } from '../../api-server';
import { settle, allByTestId, byTestId, click, mountApp, text, typeInto, unmountApp } from './catalogue-harness';

let run = 0;
afterEach(unmountApp);

describe('the catalogues against a real server', () => {
  it('create a material with a match that reaches the server, and follow it to the id the server gave it', async () => {
    run += 1;
    const server = await startApiServer();
    const { router, sync, catalogues } = await mountApp(`catalogue-sync-${run}`, '/catalogues/materials', (request) => server.handle(request));
    // The first sync brings the platform's materials; the account's database is known to be empty.
    await settle(() => expect(sync.lastCycle?.outcome).toEqual({ kind: 'ok' }));
    await settle(() => expect(catalogues.own?.materials).toEqual([]));
    await settle(() => expect(allByTestId('catalogue-row').length).toBeGreaterThan(100));
    expect(server.calls).toContain('getCurrentAccount');

    await click('catalogue-new');
    await settle(() => expect(router.currentRoute.value.params['itemId']).toBe('new'));
    await typeInto('catalogue-name-nl', 'Kalkzandsteen');
    await typeInto('catalogue-name-en', 'Sand-lime brick');
    await click('catalogue-tab-matches');
    await click('catalogue-match-add');
    await typeInto('catalogue-match-value', 'KZS');
    await click('catalogue-save');
    await settle(() => expect(isLocalId(String(router.currentRoute.value.params['itemId']))).toBe(true));

    await sync.syncNow();
    // The server has the material with its match; the page now shows it under the server's id, as the account's.
    await settle(() => expect(isLocalId(String(router.currentRoute.value.params['itemId']))).toBe(false));
    const serverId = String(router.currentRoute.value.params['itemId']);
    expect((await server.request<Material>('GET', `/materials/${serverId}`)).json.name).toMatchObject({ nl: 'Kalkzandsteen', en: 'Sand-lime brick' });
    expect((await server.request<MaterialMatch[]>('GET', `/materials/${serverId}/matches`)).json).toEqual([{ value: 'KZS', matchType: MatchType.Equals }]);
    expect(catalogues.own?.materials).toEqual([serverId]);
    await settle(() => expect(byTestId<HTMLInputElement>('catalogue-name-nl').value).toBe('Kalkzandsteen'));
    expect(allByTestId('catalogue-read-only')).toHaveLength(0);
    expect(await sync.db!.outbox.count()).toBe(0);
  }, 30_000);

  it('fetch a platform material’s details when it is opened, and show them from the cache once the server is gone', async () => {
    run += 1;
    const server = await startApiServer();
    const { sync, router } = await mountApp(`catalogue-sync-${run}`, '/catalogues/materials', (request) => server.handle(request));
    await settle(() => expect(sync.lastCycle?.outcome).toEqual({ kind: 'ok' }));
    const platform = (await server.request<Material[]>('GET', '/materials')).json;
    const gold = platform.find((each) => each.name.en === 'Gold');
    if (gold === undefined) throw new Error('The platform has no gold.');
    const matchCalls = (): number => server.calls.filter((call) => call === 'listMaterialMatches').length;
    expect(matchCalls()).toBe(0);

    await router.push(`/catalogues/materials/${gold.id}`);
    await settle(() => expect(matchCalls()).toBe(1));
    await click('catalogue-tab-matches');
    await settle(() => expect(allByTestId('catalogue-match').length).toBeGreaterThan(0));
    const shown = (allByTestId('catalogue-match-value') as HTMLInputElement[]).map((input) => input.value);
    expect(shown).toContain('Goud');
    expect(text('catalogue-read-only')).toBe('Read-only');

    // The server goes away: the details already read come from the cache; those never read are said to be missing.
    server.overrides.set('listMaterialMatches', () => ({ kind: 'network', reason: 'unreachable', message: 'Connection refused.' }));
    await click('catalogue-back');
    await router.push(`/catalogues/materials/${gold.id}`);
    await settle(() => expect(byTestId<HTMLInputElement>('catalogue-name-en').value).toBe('Gold'));
    // Read once this session: opening it again reads only the cache.
    expect(matchCalls()).toBe(1);
    await click('catalogue-tab-matches');
    expect((allByTestId('catalogue-match-value') as HTMLInputElement[]).map((input) => input.value)).toEqual(shown);

    const other = platform.find((each) => each.id !== gold.id);
    await router.push(`/catalogues/materials/${other?.id ?? ''}`);
    await settle(() => expect(text('catalogue-details-status')).toContain('have not been read yet'));
    expect(matchCalls()).toBe(2);
  }, 30_000);
});
