import { describe, expect, it } from 'vitest';
import { apiOutcomeOf } from '../../../../renderer/api/call-api';

describe('apiOutcomeOf', () => {
  it('folds a channel’s result and its API answer into one outcome', () => {
    expect(apiOutcomeOf({ ok: true, value: { kind: 'ok', status: 200, value: 'a.png', location: null } })).toEqual({
      ok: true,
      status: 200,
      value: 'a.png',
      location: null,
    });
    const problem = { type: 'about:blank', title: 'Not Found', status: 404, detail: 'No building.', instance: '/x', errors: [], message: 'No building.' };
    expect(apiOutcomeOf({ ok: true, value: { kind: 'problem', status: 404, problem } })).toEqual({
      ok: false,
      failure: { kind: 'problem', status: 404, problem },
    });
    expect(apiOutcomeOf({ ok: true, value: { kind: 'network', reason: 'timeout', message: 'No answer.' } })).toEqual({
      ok: false,
      failure: { kind: 'network', reason: 'timeout', message: 'No answer.' },
    });
    expect(apiOutcomeOf({ ok: false, error: { code: 'invalid-request', message: 'Not a PNG.' } })).toEqual({
      ok: false,
      failure: { kind: 'host', code: 'invalid-request', message: 'Not a PNG.' },
    });
  });
});
