/** The connection profiles: the servers the app talks to, and testing them. */
import { Type, type Static } from 'typebox';
import { AccountTypeSchema } from '../api/enums';
import { API_VERSIONS } from '../api/versions';
import { channel, Id, NoInput, Nothing } from './channel';

/** The API versions a connection can speak. */
export const ConnectionApiVersion = Type.Enum(API_VERSIONS);

/** `local`: the embedded server the app runs itself; `remote`: any server that speaks the spec. */
export const ConnectionKind = Type.Union([Type.Literal('local'), Type.Literal('remote')]);
/** Where a connection's server runs. */
export type ConnectionKind = Static<typeof ConnectionKind>;

/** A server's address: http(s) only, no credentials, no query or fragment. */
export const BaseUrl = Type.String({ minLength: 8, maxLength: 2000, pattern: '^https?://[^\\s?#@]+$' });

/** A connection profile as the renderer sees it: never its key, only whether one is stored. */
export const Connection = Type.Object(
  {
    id: Id,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    baseUrl: BaseUrl,
    apiVersion: ConnectionApiVersion,
    kind: ConnectionKind,
    hasKey: Type.Boolean(),
  },
  { additionalProperties: false },
);
/** A connection profile. */
export type Connection = Static<typeof Connection>;

/** All connections and the one the app works with. */
export const ConnectionList = Type.Object(
  { connections: Type.Array(Connection), activeId: Type.Union([Id, Type.Null()]) },
  { additionalProperties: false },
);
/** All connections and the active one. */
export type ConnectionList = Static<typeof ConnectionList>;

/** What the user fills in to add a connection to a remote server. */
/** The user's explicit consent to plain http to another computer (`isInsecureAddress`); refused without it. */
const PlainHttpConfirmed = Type.Optional(Type.Boolean());

export const ConnectionDraft = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    baseUrl: BaseUrl,
    apiVersion: ConnectionApiVersion,
    plainHttpConfirmed: PlainHttpConfirmed,
  },
  { additionalProperties: false },
);
/** A new connection. */
export type ConnectionDraft = Static<typeof ConnectionDraft>;

/** A connection, by its id. */
export const ConnectionRef = Type.Object({ connectionId: Id }, { additionalProperties: false });

/** A changed connection: all of its editable fields. */
export const ConnectionUpdate = Type.Object(
  { connectionId: Id, ...ConnectionDraft.properties },
  { additionalProperties: false },
);

/** A connection not saved yet, with the key typed for it: tested before it is added. */
export const ConnectionDraftTest = Type.Object(
  {
    baseUrl: BaseUrl,
    apiVersion: ConnectionApiVersion,
    plainHttpConfirmed: PlainHttpConfirmed,
    key: Type.String({ minLength: 1, maxLength: 4096, pattern: '^[\\x21-\\x7e]+$' }),
  },
  { additionalProperties: false },
);
/** A connection not saved yet, with its key. */
export type ConnectionDraftTest = Static<typeof ConnectionDraftTest>;

/** What "Test connection" found: the account the key belongs to, as `/accounts/current` answers. */
export const ConnectionTestResult = Type.Union([
  Type.Object(
    { kind: Type.Literal('ok'), accountName: Type.String(), accountType: AccountTypeSchema },
    { additionalProperties: false },
  ),
  Type.Object(
    { kind: Type.Literal('problem'), status: Type.Integer(), title: Type.String(), detail: Type.String() },
    { additionalProperties: false },
  ),
  Type.Object({ kind: Type.Literal('network'), message: Type.String() }, { additionalProperties: false }),
]);
/** What "Test connection" found. */
export type ConnectionTestResult = Static<typeof ConnectionTestResult>;

/** The `connections:` channels. */
export const connectionChannels = {
  'connections:list': channel(NoInput, ConnectionList),
  'connections:add': channel(ConnectionDraft, Connection),
  'connections:update': channel(ConnectionUpdate, Connection),
  'connections:remove': channel(ConnectionRef, Nothing),
  'connections:activate': channel(ConnectionRef, Nothing),
  'connections:test': channel(ConnectionRef, ConnectionTestResult),
  'connections:test-draft': channel(ConnectionDraftTest, ConnectionTestResult),
} as const;

/** The `connections:` events. */
export const connectionEvents = {
  'connections:changed': ConnectionList,
} as const;
