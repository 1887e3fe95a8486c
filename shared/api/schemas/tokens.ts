/** API token schemas: our extension of decisions §5. */
import { Type, type Static } from 'typebox';
import { PermissionLevelInputSchema, PermissionLevelSchema } from '../enums';
import { DateTime, Maybe, Nullable, Uuid } from '../schema-kit';

/** A token to create on an account, portfolio or building. */
export const TokenRequest = Type.Object({
  name: Type.String({ pattern: '\\S', description: 'Shown in the users list; not blank.' }),
  level: PermissionLevelInputSchema,
  expirationDateTime: Maybe(DateTime({ description: 'When the key stops working; absent or null: never.' })),
});
/** A token to create. */
export type TokenRequest = Static<typeof TokenRequest>;

/** A created token, with its key: the only time the key is ever shown (only its SHA-256 is stored). */
export const TokenResponse = Type.Object(
  {
    id: Uuid({ description: 'The token id; also its userId in the users list.' }),
    name: Type.String(),
    level: PermissionLevelSchema,
    expirationDateTime: Nullable(DateTime({ description: 'When the key stops working; null: never.' })),
    key: Type.String({ description: 'The API key for `X-API-Key`.' }),
  },
  { additionalProperties: false },
);
/** A created token, with its key. */
export type TokenResponse = Static<typeof TokenResponse>;
