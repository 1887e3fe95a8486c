/** Portfolio and portfolio file schemas (spec §2.10). */
import { Type, type Static } from 'typebox';
import { PortfolioFileStatusesSchema, PortfolioFileTypeSchema } from '../enums';
import { DateTime, Int64, Maybe, Nullable, Uuid } from '../schema-kit';

/** A portfolio as sent on create and replace. */
export const PortfolioRequest = Type.Object({
  name: Type.String({ pattern: '\\S', description: 'Not blank.' }),
});
/** A portfolio as sent. */
export type PortfolioRequest = Static<typeof PortfolioRequest>;

/** A portfolio as answered. */
export const PortfolioResponse = Type.Object(
  {
    name: Type.String(),
    logo: Nullable(Type.String({ description: 'File name or address of the logo; null without one.' })),
    id: Uuid(),
  },
  { additionalProperties: false },
);
/** A portfolio as answered. */
export type PortfolioResponse = Static<typeof PortfolioResponse>;

/** Which buildings a portfolio passport covers; absent or null means all buildings of the portfolio. */
export const CreatePassportRequest = Type.Object({
  buildingIds: Maybe(Type.Array(Uuid())),
});
/** Which buildings a portfolio passport covers. */
export type CreatePassportRequest = Static<typeof CreatePassportRequest>;

/** A portfolio file to create. */
export const PortfolioFileRequest = Type.Object({
  name: Maybe(Type.String({ description: 'File name; the upload gives it when absent.' })),
  tags: Maybe(Type.Array(Type.String())),
});
/** A portfolio file to create. */
export type PortfolioFileRequest = Static<typeof PortfolioFileRequest>;

/** A portfolio file as answered. */
export const PortfolioFileResponse = Type.Object(
  {
    portfolioId: Uuid(),
    fileName: Nullable(Type.String()),
    fileSize: Nullable(Int64({ description: 'Bytes; null until uploaded or generated.' })),
    status: PortfolioFileStatusesSchema,
    type: PortfolioFileTypeSchema,
    lastModifiedDate: DateTime(),
    tags: Type.Array(Type.String()),
    id: Uuid(),
  },
  { additionalProperties: false },
);
/** A portfolio file as answered. */
export type PortfolioFileResponse = Static<typeof PortfolioFileResponse>;

/** Progress of a portfolio file; `id` is the file's id. */
export const PortfolioFileStatusResponse = Type.Object(
  {
    status: PortfolioFileStatusesSchema,
    statusMessage: Nullable(Type.String()),
    id: Uuid(),
  },
  { additionalProperties: false },
);
/** Progress of a portfolio file. */
export type PortfolioFileStatusResponse = Static<typeof PortfolioFileStatusResponse>;
