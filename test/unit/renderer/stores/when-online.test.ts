import { describe, expect, it } from 'vitest';
import { succeeded } from '../../../../renderer/api/outcome';
import { LOCAL_ID_PREFIX } from '../../../../renderer/db/schema';
import { whenOnline } from '../../../../renderer/stores/when-online';

const ID = '00000000-0000-4000-8000-000000000001';

describe('whenOnline', () => {
  it('runs the call for the open connection when it can', async () => {
    expect(await whenOnline({ connectionId: 'c1', online: true }, ID, async (connectionId) => succeeded(connectionId))).toEqual(succeeded('c1'));
  });

  it('answers why the call did not run: no connection, a resource not on the server yet, offline', async () => {
    const run = async (): Promise<never> => {
      throw new Error('ran');
    };
    expect(await whenOnline({ connectionId: null, online: true }, ID, run)).toEqual({ ok: false, failure: { kind: 'no-connection' } });
    expect(await whenOnline({ connectionId: 'c1', online: true }, `${LOCAL_ID_PREFIX}new`, run)).toEqual({ ok: false, failure: { kind: 'not-on-server' } });
    expect(await whenOnline({ connectionId: 'c1', online: false }, ID, run)).toEqual({ ok: false, failure: { kind: 'offline' } });
  });
});
