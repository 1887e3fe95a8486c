/** Account schemas (spec §2.1). */
import { Type, type Static } from 'typebox';
import { AccountTypeSchema } from '../enums';
import { Uuid } from '../schema-kit';

/** An account: the caller's own, or an element database it may use. */
export const AccountResponse = Type.Object(
  {
    name: Type.String(),
    accountType: AccountTypeSchema,
    id: Uuid(),
  },
  { additionalProperties: false },
);
/** An account. */
export type AccountResponse = Static<typeof AccountResponse>;
