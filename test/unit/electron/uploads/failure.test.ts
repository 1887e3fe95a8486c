import { describe, expect, it } from 'vitest';
import type { CallNetworkFailure, CallProblem } from '../../../../shared/api/client';
import { failureOf, OFFLINE_MESSAGE, plainReason, problemOf, UploadFailure } from '../../../../electron/uploads/failure';

function problem(status: number, detail: string, title = 'Problem'): CallProblem {
  return { kind: 'problem', status, problem: { type: 'about:blank', title, status, detail, instance: '/x', errors: [], message: detail } };
}

function network(reason: CallNetworkFailure['error']['reason']): CallNetworkFailure {
  return { kind: 'network', error: { reason, message: `uploadBuildingFile: ${reason} (ECONNREFUSED)` } };
}

describe('plainReason', () => {
  it('keeps the server’s detail without ids, on one line', () => {
    expect(plainReason({ title: 'Not Found', detail: "Building file '3f2b8a4e-4c1d-4e8f-9a6b-0c5d7e9f1a2b' was not found." }, 'x')).toBe('Building file was not found.');
    expect(plainReason({ title: 'Bad Request', detail: 'name: too long\n    at handler (server.ts:1)' }, 'x')).toBe('name: too long');
    expect(plainReason({ title: 'Conflict', detail: '' }, 'x')).toBe('Conflict');
    expect(plainReason({ title: '', detail: '  ' }, 'The server refused the file.')).toBe('The server refused the file.');
    expect(plainReason({ title: '', detail: 'y'.repeat(400) }, 'x')).toHaveLength(300);
  });
});

describe('failureOf', () => {
  it('waits for a server that cannot be reached or cannot take it now, in the same plain words', () => {
    for (const result of [network('unreachable'), network('timeout'), problem(503, 'down'), problem(429, 'slow down'), problem(502, 'bad gateway')]) {
      expect(failureOf(result).kind).toBe('offline');
    }
    expect(failureOf(network('unreachable')).message).toBe(OFFLINE_MESSAGE);
  });

  it('names the key, the size and the server’s reason, never an operation or an error code', () => {
    expect(failureOf(problem(401, 'The API key is not valid.'))).toMatchObject({ kind: 'no-key', message: expect.stringContaining('key') });
    expect(failureOf(problem(413, 'The upload is larger than the limit of 2147483648 bytes.'))).toMatchObject({ kind: 'too-large' });
    expect(failureOf(problem(400, 'fileName: must not contain /'))).toMatchObject({ kind: 'refused', message: 'fileName: must not contain /' });
    expect(failureOf(problem(404, 'gone'))).toMatchObject({ kind: 'gone' });
    expect(failureOf(problem(409, 'A file in status 4 does not accept an upload.'))).toMatchObject({ kind: 'busy' });
    expect(failureOf(network('aborted')).kind).toBe('stopped');
    for (const reason of ['invalid-request', 'invalid-response'] as const) {
      const failure = failureOf(network(reason));
      expect(failure.kind).toBe('internal');
      expect(failure.message).not.toMatch(/uploadBuildingFile|ECONN/);
    }
  });
});

describe('problemOf', () => {
  it('gives each failure one of the contract’s codes', () => {
    expect(problemOf(new UploadFailure('source-gone', 'gone'))).toEqual({ code: 'source-gone', message: 'gone' });
    expect(problemOf(new UploadFailure('busy', 'busy'))).toEqual({ code: 'refused', message: 'busy' });
    expect(problemOf(new UploadFailure('offline', OFFLINE_MESSAGE))).toEqual({ code: 'offline', message: OFFLINE_MESSAGE });
  });
});
