/** The vault that keeps each connection's API key. */
import { Type, type Static } from 'typebox';
import { channel, Id, NoInput, Nothing } from './channel';
import { ConnectionRef } from './connections';

/**
 * How keys are protected at rest. `os-encryption`: Electron safeStorage (DPAPI, Keychain, libsecret/kwallet);
 * `os-keyring`: a vault key kept in the OS keyring; `key-file`: a vault key in a file only this user can read;
 * `basic-text`: Linux without a keyring, where safeStorage only obfuscates; `memory`: nothing is stored (tests).
 */
export const KeyProtection = Type.Enum(['os-encryption', 'os-keyring', 'key-file', 'basic-text', 'memory']);
/** How keys are protected at rest. */
export type KeyProtection = Static<typeof KeyProtection>;

/** The vault's protection, and whether storing a key needs the user's consent first. */
export const VaultStatus = Type.Object(
  { protection: KeyProtection, needsConsent: Type.Boolean() },
  { additionalProperties: false },
);
/** The vault's protection. */
export type VaultStatus = Static<typeof VaultStatus>;

/** Stores a connection's key; `allowInsecureStorage` is the user's consent when the vault needs one. */
export const SetKeyRequest = Type.Object(
  {
    connectionId: Id,
    key: Type.String({ minLength: 1, maxLength: 4096, pattern: '^[\\x21-\\x7e]+$' }),
    allowInsecureStorage: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** The `vault:` channels. */
export const vaultChannels = {
  'vault:status': channel(NoInput, VaultStatus),
  'vault:has-key': channel(ConnectionRef, Type.Boolean()),
  'vault:set-key': channel(SetKeyRequest, Nothing),
  'vault:clear-key': channel(ConnectionRef, Nothing),
} as const;
