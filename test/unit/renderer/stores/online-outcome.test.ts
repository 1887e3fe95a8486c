import { describe, expect, it } from 'vitest';
import { refusalOf } from '../../../../renderer/stores/online-outcome';

describe('refusalOf', () => {
  it('tells no answer, a key that may not, and other failures apart', () => {
    expect(refusalOf({ kind: 'network', message: 'Down.' })).toEqual({ kind: 'unreachable', message: 'Down.' });
    expect(refusalOf({ kind: 'problem', status: 403, title: 'Forbidden', detail: 'Read only.' })).toEqual({ kind: 'forbidden', status: 403, detail: 'Read only.' });
    expect(refusalOf({ kind: 'problem', status: 401, title: 'Unauthorized', detail: '' })).toEqual({ kind: 'forbidden', status: 401, detail: '' });
    expect(refusalOf({ kind: 'problem', status: 422, title: 'Unprocessable', detail: 'Bad.' })).toEqual({
      kind: 'failed',
      failure: { kind: 'problem', status: 422, title: 'Unprocessable', detail: 'Bad.' },
    });
    expect(refusalOf({ kind: 'not-a-list' })).toEqual({ kind: 'failed', failure: { kind: 'not-a-list' } });
  });
});
