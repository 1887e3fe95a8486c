import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { ConnectionDraft } from '../../../../../shared/ipc';
import {
  baseUrlIssue,
  connectionIssues,
  keyIssue,
  nameIssue,
  toDraft,
} from '../../../../../renderer/views/connections/connection-validation';

describe('baseUrlIssue', () => {
  it.each([
    ['', 'required'],
    ['   ', 'required'],
    ['api.example.com', 'protocol'],
    ['ftp://files.example.com', 'protocol'],
    ['mailto:someone', 'protocol'],
    ['https:example.com', 'invalid'],
    ['https://', 'invalid'],
    ['https://exa mple.com', 'invalid'],
    ['https://user:pass@example.com', 'credentials'],
    ['https://example.com/api?key=1', 'query'],
    ['https://example.com/#top', 'query'],
    [`https://example.com/${'a'.repeat(2000)}`, 'too-long'],
  ])('%s → %s', (url, issue) => {
    expect(baseUrlIssue(url)).toBe(issue);
  });

  it.each(['http://127.0.0.1:8080', 'https://api.example.com/', 'HTTPS://Example.com/api/v2.3', '  https://x.org  '])(
    'accepts %s',
    (url) => {
      expect(baseUrlIssue(url)).toBeUndefined();
    },
  );
});

describe('nameIssue and keyIssue', () => {
  it('want a name that is not blank and at most 200 characters', () => {
    expect([nameIssue(''), nameIssue('  '), nameIssue('x'.repeat(201)), nameIssue(' Production ')]).toEqual([
      'required',
      'required',
      'too-long',
      undefined,
    ]);
  });

  it('want a key of printable characters without spaces, at most 4096', () => {
    expect([keyIssue(''), keyIssue('with space'), keyIssue('tab\tkey'), keyIssue('é-key'), keyIssue('k'.repeat(4097))]).toEqual([
      'required',
      'invalid',
      'invalid',
      'invalid',
      'too-long',
    ]);
    expect(keyIssue('  cd_live_AbC123-._~!$  ')).toBeUndefined();
  });

  it('leave the key out when it is not asked for', () => {
    const fields = { name: 'A', baseUrl: 'https://a.example', apiVersion: 'v2.3' as const, key: '', plainHttpConfirmed: false };
    expect(connectionIssues(fields, false)).toEqual({});
    expect(connectionIssues(fields, true)).toEqual({ key: 'required' });
  });

  it('want plain http to another computer agreed to, and nothing for this computer or https', () => {
    const fields = (baseUrl: string, plainHttpConfirmed: boolean) => ({ name: 'A', baseUrl, apiVersion: 'v2.3' as const, key: '', plainHttpConfirmed });
    expect(connectionIssues(fields('http://desk.example', false), false)).toEqual({ plainHttp: 'unconfirmed' });
    expect(connectionIssues(fields('http://desk.example', true), false)).toEqual({});
    expect(connectionIssues(fields('http://127.0.0.1:8080', false), false)).toEqual({});
    expect(connectionIssues(fields('https://desk.example', false), false)).toEqual({});
    expect(toDraft(fields('http://desk.example/', true))).toEqual({ name: 'A', baseUrl: 'http://desk.example', apiVersion: 'v2.3', plainHttpConfirmed: true });
    // The agreement belongs to a plain http address only: it does not travel to another one.
    expect(toDraft(fields('https://desk.example', true))).toEqual({ name: 'A', baseUrl: 'https://desk.example', apiVersion: 'v2.3' });
  });
});

describe('toDraft', () => {
  it('produces a draft the Bridge contract accepts from every address the form accepts', () => {
    for (const baseUrl of ['HTTPS://Example.com/api/', 'http://127.0.0.1:8080///', '  https://x.org  ']) {
      const draft = toDraft({ name: '  Production ', baseUrl, apiVersion: 'v2.1', key: 'k', plainHttpConfirmed: false });
      expect(baseUrlIssue(baseUrl)).toBeUndefined();
      expect(Value.Check(ConnectionDraft, draft)).toBe(true);
    }
    expect(toDraft({ name: ' P ', baseUrl: 'HTTPS://Example.com/api/', apiVersion: 'v2.1', key: 'k', plainHttpConfirmed: false })).toEqual({
      name: 'P',
      baseUrl: 'https://Example.com/api',
      apiVersion: 'v2.1',
    });
  });
});
