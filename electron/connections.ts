/**
 * The connection profiles of the app, in `<userDataDir>/connections.json`: the Local workspace (the embedded server)
 * and any number of remote servers. A profile holds no key; keys live in the vault under the profile's id.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { assertNever } from '../shared/api/enums';
import { BaseUrl, BridgeError, Connection, ConnectionList, type ConnectionDraft } from '../shared/ipc';
import { readJsonFile, setAsideInvalidFile, writeJsonFile } from './json-file';
import { plainHttpNeedsConsent, systemLookup, type HostLookup } from './network/this-computer';

/** A stored connection: what the renderer sees, without whether a key is stored (the vault knows that). */
export const ConnectionProfile = Type.Omit(Connection, ['hasKey'], { additionalProperties: false });
/** A stored connection. */
export type ConnectionProfile = Static<typeof ConnectionProfile>;

/** The id of the Local workspace's profile, the same on every machine. */
export const LOCAL_CONNECTION_ID = 'local';

/** What the Local workspace's key is bound to in the vault (see `keyOriginOf`). */
export const LOCAL_KEY_ORIGIN = 'app://local-workspace';

const LOCAL_CONNECTION_NAME = 'Local workspace';
const FILE_NAME = 'connections.json';

const ConnectionsDocument = Type.Object(
  {
    version: Type.Literal(1),
    profiles: Type.Array(ConnectionProfile),
    activeId: ConnectionList.properties.activeId,
  },
  { additionalProperties: false },
);
type ConnectionsDocument = Static<typeof ConnectionsDocument>;

/** Rules the schema cannot say; a document that breaks one was not written by the store and is set aside. */
function documentProblem(document: ConnectionsDocument): string | undefined {
  const ids = new Set(document.profiles.map((profile) => profile.id));
  if (ids.size !== document.profiles.length) return 'two connections share an id';
  const misplacedLocal = document.profiles.some(
    (profile) => (profile.kind === 'local') !== (profile.id === LOCAL_CONNECTION_ID),
  );
  if (misplacedLocal) return `only the connection '${LOCAL_CONNECTION_ID}' may be (and must be) local`;
  if (document.activeId !== null && !ids.has(document.activeId)) return 'the active connection does not exist';
  return undefined;
}

/**
 * The origin a connection's key is bound to: its address's scheme, host and port. The Local workspace's address
 * changes with every start (a free port on 127.0.0.1) and is set by the app alone, so its key is bound to the
 * workspace itself.
 */
export function keyOriginOf(profile: Pick<ConnectionProfile, 'kind' | 'baseUrl'>): string {
  return profile.kind === 'local' ? LOCAL_KEY_ORIGIN : new URL(profile.baseUrl).origin;
}

/** Normalises a base URL (no trailing slash, lower-case scheme and host); throws `invalid-request` for anything else. */
export function normaliseBaseUrl(input: string): string {
  // The scheme is lower-cased first, so `HTTPS://` meets the contract's pattern like the URL it stands for.
  const raw = input.trim().replace(/^[a-z][a-z0-9+.-]*:/i, (scheme) => scheme.toLowerCase());
  const invalid = new BridgeError(
    'invalid-request',
    'The server address must be an http:// or https:// address without user name, password, query or fragment.',
  );
  if (!Value.Check(BaseUrl, raw)) throw invalid;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid;
  const normalised = `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  if (!Value.Check(BaseUrl, normalised)) throw invalid;
  return normalised;
}

const PLAIN_HTTP_MESSAGE =
  'Plain http sends the key and all data unencrypted over the network. Use an https:// address, or confirm that ' +
  'this server may be reached over plain http.';

/** Refuses plain http to anything but this computer (a name counts only when it resolves to loopback) unless the user confirmed it. */
async function refuseUnconfirmedPlainHttp(baseUrl: string, confirmed: boolean | undefined, lookupHost: HostLookup): Promise<void> {
  if (confirmed !== true && (await plainHttpNeedsConsent(baseUrl, lookupHost))) throw new BridgeError('invalid-request', PLAIN_HTTP_MESSAGE);
}

/** Checks a draft's address before a key is sent to it: valid, and plain http elsewhere only when confirmed. */
export async function checkedDraftAddress(draft: Pick<ConnectionDraft, 'baseUrl' | 'plainHttpConfirmed'>, lookupHost: HostLookup = systemLookup): Promise<string> {
  const baseUrl = normaliseBaseUrl(draft.baseUrl);
  await refuseUnconfirmedPlainHttp(baseUrl, draft.plainHttpConfirmed, lookupHost);
  return baseUrl;
}

function normaliseName(input: string): string {
  const name = input.trim();
  if (!Value.Check(ConnectionProfile.properties.name, name)) {
    throw new BridgeError('invalid-request', 'A connection needs a name of 1 to 200 characters.');
  }
  return name;
}

function storageFailure(action: string, error: unknown): BridgeError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason = typeof code === 'string' ? ` (${code})` : '';
  return new BridgeError('storage-failed', `The connections could not be ${action}${reason}.`);
}

/** The connection profiles and the active one, persisted; every change is written before it is visible. */
export class ConnectionStore {
  readonly #file: string;
  #document: ConnectionsDocument;
  /** Resolves a plain-http server's name, which counts as this computer only when it resolves to loopback. */
  readonly #lookupHost: HostLookup;
  readonly #listeners = new Set<() => void>();
  // Changes run one after another, each writing the whole document from the state the previous one left.
  #queue: Promise<void> = Promise.resolve();

  /** Path of an unreadable connections file that was moved aside at open, if any. */
  readonly setAside: string | undefined;

  private constructor(file: string, document: ConnectionsDocument, setAside: string | undefined, lookupHost: HostLookup) {
    this.#lookupHost = lookupHost;
    this.#file = file;
    this.#document = document;
    this.setAside = setAside;
  }

  /** Reads `<userDataDir>/connections.json`; an unreadable file is moved aside and the list starts empty. */
  static async open(userDataDir: string, lookupHost: HostLookup = systemLookup): Promise<ConnectionStore> {
    const file = path.join(userDataDir, FILE_NAME);
    const empty: ConnectionsDocument = { version: 1, profiles: [], activeId: null };
    let read;
    try {
      read = await readJsonFile(file, ConnectionsDocument);
    } catch (error) {
      throw storageFailure('read', error);
    }
    switch (read.kind) {
      case 'ok':
        if (documentProblem(read.value) === undefined) return new ConnectionStore(file, read.value, undefined, lookupHost);
        break;
      case 'missing':
        return new ConnectionStore(file, empty, undefined, lookupHost);
      case 'invalid':
        break;
      default:
        return assertNever(read);
    }
    try {
      return new ConnectionStore(file, empty, await setAsideInvalidFile(file), lookupHost);
    } catch (error) {
      throw storageFailure('read', error);
    }
  }

  /** All profiles, in the order they were added (the Local workspace first), and the active one's id. */
  list(): { profiles: ConnectionProfile[]; activeId: string | null } {
    return { profiles: this.#document.profiles.map((profile) => ({ ...profile })), activeId: this.#document.activeId };
  }

  /** The profile with this id, if there is one. */
  get(id: string): ConnectionProfile | undefined {
    const profile = this.#document.profiles.find((each) => each.id === id);
    return profile === undefined ? undefined : { ...profile };
  }

  /** The profile with this id; throws `not-found` when there is none. */
  require(id: string): ConnectionProfile {
    const profile = this.get(id);
    if (profile === undefined) throw new BridgeError('not-found', 'This connection does not exist (any more).');
    return profile;
  }

  /** Adds a connection to a remote server; the first connection of an empty list becomes the active one. */
  async add(draft: ConnectionDraft): Promise<ConnectionProfile> {
    const profile: ConnectionProfile = {
      id: randomUUID(),
      name: normaliseName(draft.name),
      baseUrl: await checkedDraftAddress(draft, this.#lookupHost),
      apiVersion: draft.apiVersion,
      kind: 'remote',
    };
    await this.#change((current) => ({
      ...current,
      profiles: [...current.profiles, profile],
      activeId: current.activeId ?? profile.id,
    }));
    return { ...profile };
  }

  /** Changes a connection; of the Local workspace only the name may change (its address is the app's own). */
  async update(id: string, draft: ConnectionDraft): Promise<ConnectionProfile> {
    const name = normaliseName(draft.name);
    const baseUrl = normaliseBaseUrl(draft.baseUrl);
    const unconfirmedPlainHttp = draft.plainHttpConfirmed !== true && (await plainHttpNeedsConsent(baseUrl, this.#lookupHost));
    await this.#change((current) => {
      const existing = current.profiles.find((profile) => profile.id === id);
      if (existing === undefined) throw new BridgeError('not-found', 'This connection does not exist (any more).');
      if (existing.kind === 'local' && (baseUrl !== existing.baseUrl || draft.apiVersion !== existing.apiVersion)) {
        throw new BridgeError('conflict', 'Only the name of the Local workspace can be changed; the app sets its address.');
      }
      // An address on the origin it had keeps what was agreed for it; another one is a new server.
      if (new URL(baseUrl).origin !== new URL(existing.baseUrl).origin && unconfirmedPlainHttp) throw new BridgeError('invalid-request', PLAIN_HTTP_MESSAGE);
      const next: ConnectionProfile = { ...existing, name, baseUrl, apiVersion: draft.apiVersion };
      return { ...current, profiles: current.profiles.map((profile) => (profile.id === id ? next : profile)) };
    });
    return this.require(id);
  }

  /** Removes a remote connection; when it was the active one, the Local workspace (or else the first) becomes active. */
  async remove(id: string): Promise<void> {
    await this.#change((current) => {
      const existing = current.profiles.find((profile) => profile.id === id);
      if (existing === undefined) throw new BridgeError('not-found', 'This connection does not exist (any more).');
      if (existing.kind === 'local') throw new BridgeError('conflict', 'The Local workspace cannot be removed.');
      const profiles = current.profiles.filter((profile) => profile.id !== id);
      const fallback = profiles.find((profile) => profile.kind === 'local') ?? profiles[0];
      const activeId = current.activeId === id ? (fallback?.id ?? null) : current.activeId;
      return { ...current, profiles, activeId };
    });
  }

  /** Makes a connection the one the app works with. */
  async activate(id: string): Promise<void> {
    await this.#change((current) => {
      if (!current.profiles.some((profile) => profile.id === id)) {
        throw new BridgeError('not-found', 'This connection does not exist (any more).');
      }
      return current.activeId === id ? undefined : { ...current, activeId: id };
    });
  }

  /** Creates the "Local workspace" profile (kind 'local', fixed id 'local') on first start, or points it at this start's address. */
  async ensureLocal(baseUrl: string): Promise<ConnectionProfile> {
    const address = normaliseBaseUrl(baseUrl);
    await this.#change((current) => {
      const existing = current.profiles.find((profile) => profile.id === LOCAL_CONNECTION_ID);
      if (existing === undefined) {
        const local: ConnectionProfile = {
          id: LOCAL_CONNECTION_ID,
          name: LOCAL_CONNECTION_NAME,
          baseUrl: address,
          apiVersion: 'v2.3',
          kind: 'local',
        };
        return { ...current, profiles: [local, ...current.profiles], activeId: current.activeId ?? LOCAL_CONNECTION_ID };
      }
      if (existing.baseUrl === address) return undefined;
      return {
        ...current,
        profiles: current.profiles.map((profile) =>
          profile.id === LOCAL_CONNECTION_ID ? { ...profile, baseUrl: address } : profile,
        ),
      };
    });
    return this.require(LOCAL_CONNECTION_ID);
  }

  /** Calls `listener` after every change that was saved; returns the function that stops it. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Runs a change after the ones before it; `undefined` means nothing changed. Memory follows only a written file. */
  #change(change: (current: ConnectionsDocument) => ConnectionsDocument | undefined): Promise<void> {
    const run = this.#queue.then(async () => {
      const next = change(this.#document);
      if (next === undefined) return;
      try {
        await writeJsonFile(this.#file, next);
      } catch (error) {
        throw storageFailure('saved', error);
      }
      this.#document = next;
      for (const listener of [...this.#listeners]) listener();
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
