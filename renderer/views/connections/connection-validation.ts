/**
 * The rules of the connection form, checked as the user types. They mirror the Bridge contract's `ConnectionDraft`
 * and `SetKeyRequest` (which the host checks again), but name each problem so the form can say what to change.
 */
import { isInsecureAddress } from '../../../shared/connection-address';
import type { Connection, ConnectionDraft } from '../../../shared/ipc';

/** The API versions a connection can speak. */
export type ApiVersion = Connection['apiVersion'];

/** What the form holds. */
export interface ConnectionFields {
  name: string;
  baseUrl: string;
  apiVersion: ApiVersion;
  key: string;
  /** The user agreed to plain http to another computer (asked only for such an address). */
  plainHttpConfirmed: boolean;
}

/** What the form hands over: the draft, and the trimmed key when adding (empty when editing). */
export interface ConnectionFormValue {
  draft: ConnectionDraft;
  key: string;
}

/** What is wrong with a name. */
export type NameIssue = 'required' | 'too-long';
/** What is wrong with a base URL. */
export type UrlIssue = 'required' | 'invalid' | 'protocol' | 'credentials' | 'query' | 'too-long';
/** What is wrong with a key. */
export type KeyIssue = 'required' | 'invalid' | 'too-long';

/** Each field's problem, if any. */
export interface ConnectionIssues {
  name?: NameIssue;
  baseUrl?: UrlIssue;
  /** Plain http to another computer that the user has not agreed to. */
  plainHttp?: 'unconfirmed';
  key?: KeyIssue;
}

const NAME_MAX = 200;
const URL_MAX = 2000;
const KEY_MAX = 4096;
const KEY_CHARACTERS = /^[\x21-\x7e]+$/;

/** Checks a connection's name. */
export function nameIssue(name: string): NameIssue | undefined {
  const trimmed = name.trim();
  if (trimmed === '') return 'required';
  if (trimmed.length > NAME_MAX) return 'too-long';
  return undefined;
}

/** Checks a server address: http(s), no credentials, no query or fragment. */
export function baseUrlIssue(baseUrl: string): UrlIssue | undefined {
  const trimmed = baseUrl.trim();
  if (trimmed === '') return 'required';
  if (trimmed.length > URL_MAX) return 'too-long';
  if (!/^[a-z][a-z0-9+.-]*:/i.test(trimmed)) return 'protocol';
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return 'invalid';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'protocol';
  if (!/^https?:\/\//i.test(trimmed) || parsed.hostname === '' || /\s/.test(trimmed)) return 'invalid';
  if (trimmed.includes('@')) return 'credentials';
  if (trimmed.includes('?') || trimmed.includes('#')) return 'query';
  return undefined;
}

/** Checks an API key: printable characters without spaces. */
export function keyIssue(key: string): KeyIssue | undefined {
  const trimmed = key.trim();
  if (trimmed === '') return 'required';
  if (trimmed.length > KEY_MAX) return 'too-long';
  if (!KEY_CHARACTERS.test(trimmed)) return 'invalid';
  return undefined;
}

/** Checks the whole form; the key only when it is asked for (adding, not editing). */
export function connectionIssues(fields: ConnectionFields, withKey: boolean): ConnectionIssues {
  const issues: ConnectionIssues = {};
  const name = nameIssue(fields.name);
  if (name !== undefined) issues.name = name;
  const baseUrl = baseUrlIssue(fields.baseUrl);
  if (baseUrl !== undefined) issues.baseUrl = baseUrl;
  else if (isInsecureAddress(fields.baseUrl.trim()) && !fields.plainHttpConfirmed) issues.plainHttp = 'unconfirmed';
  if (withKey) {
    const key = keyIssue(fields.key);
    if (key !== undefined) issues.key = key;
  }
  return issues;
}

/** Whether nothing is wrong. */
export function hasNoIssues(issues: ConnectionIssues): boolean {
  return issues.name === undefined && issues.baseUrl === undefined && issues.plainHttp === undefined && issues.key === undefined;
}

/**
 * The draft the host receives: trimmed, the scheme in lower case (the contract's pattern is case-sensitive) and
 * without trailing slashes, so `https://x/` and `https://x` are the same server.
 */
export function toDraft(fields: ConnectionFields): ConnectionDraft {
  const baseUrl = fields.baseUrl
    .trim()
    .replace(/^https?:/i, (scheme) => scheme.toLowerCase())
    .replace(/\/+$/, '');
  const draft: ConnectionDraft = { name: fields.name.trim(), baseUrl, apiVersion: fields.apiVersion };
  if (isInsecureAddress(baseUrl) && fields.plainHttpConfirmed) draft.plainHttpConfirmed = true;
  return draft;
}
