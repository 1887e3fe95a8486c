/** The path, query and header schemas the routes share, and the image types an image upload accepts. */
import { Type } from 'typebox';
import { Int32, Uuid } from '../schema-kit';

export const IdParams = Type.Object({ id: Uuid() });
export const IdFileNameParams = Type.Object({ id: Uuid(), fileName: Type.String({ minLength: 1 }) });
export const BuildingIdParams = Type.Object({ buildingId: Uuid() });
export const BuildingFileParams = Type.Object({ buildingId: Uuid(), fileId: Uuid() });
export const BuildingFileUploadParams = Type.Object({ buildingId: Uuid(), fileId: Uuid(), fileName: Type.String({ minLength: 1 }) });
export const ElementParams = Type.Object({
  buildingId: Uuid(),
  fileId: Uuid(),
  elementId: Type.String({ minLength: 1, description: 'The element identifier, not a uuid.' }),
});
export const PortfolioIdParams = Type.Object({ portfolioId: Uuid() });
export const PortfolioFileParams = Type.Object({ portfolioId: Uuid(), fileId: Uuid() });
export const PortfolioFileUploadParams = Type.Object({ portfolioId: Uuid(), fileId: Uuid(), fileName: Type.String({ minLength: 1 }) });
export const TokenParams = Type.Object({ tokenId: Uuid() });
export const SubjectTokenParams = Type.Object({ id: Uuid(), tokenId: Uuid() });
export const DownloadParams = Type.Object({ token: Type.String({ minLength: 1, description: 'The signed token of the download address.' }) });

export const DatabaseQuery = Type.Object({
  databaseId: Type.Optional(Uuid({ description: "Only this database's entries; absent: the platform's own database." })),
});

/** A rate of the financial calculation; "default used when empty" (spec §8), so an empty value is accepted too. */
function financialRate(description: string) {
  return Type.Optional(
    Type.Unsafe<number | ''>({
      anyOf: [{ type: 'number' }, { type: 'string', maxLength: 0 }],
      description: `${description} Absent or empty: the default.`,
    }),
  );
}

export const FinancialQuery = Type.Object({
  inflation: financialRate('Yearly inflation as a fraction (default 0.02).'),
  bdbIndex: financialRate('Yearly BDB index as a fraction (default 0.025).'),
  discountRate: financialRate('Yearly discount rate as a fraction (default 0.03).'),
});

/** OData options of the element list (decisions §10); the server parses the expressions itself. */
export const ElementListQuery = Type.Object({
  $select: Type.Optional(Type.String({ description: 'Comma-separated properties to include.' })),
  $filter: Type.Optional(Type.String({ description: 'A Boolean condition.' })),
  $top: Type.Optional(Int32({ minimum: 0, description: 'Maximum number of elements; absent: all.' })),
  $skip: Type.Optional(Int32({ minimum: 0, description: 'Number of elements skipped.' })),
  $orderby: Type.Optional(Type.String({ description: 'Properties with asc or desc; ties in element id order.' })),
});

/** The `Idempotency-Key` extension (IETF draft "The Idempotency-Key HTTP Header Field"), on every POST without file content. */
const IdempotencyKey = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 255,
    pattern: '^[!-~]+$',
    description:
      'An extension of this server, optional for clients: 1 to 255 visible ASCII characters, a new one (e.g. a uuid) per request the client means to make once. ' +
      'For 24 hours the same key with the same request answers the first successful answer again, with `Idempotent-Replayed: true`, without doing the work twice; ' +
      'with another request it answers 422, and while the first request is still running 409 with Retry-After. An answer that is not 2xx is not kept, so the key may be retried.',
  }),
);

export const IdempotentHeaders = Type.Object({ 'idempotency-key': IdempotencyKey });

export const PassportHeaders = Type.Object({
  'accept-language': Type.Optional(
    Type.String({
      maxLength: 1000,
      description:
        'The language of the passport: nl, en, es, fr, it or de, or a full Accept-Language header from which the best of those is taken; en when absent or none fits.',
    }),
  ),
  'idempotency-key': IdempotencyKey,
});

export const IMAGE_CONTENT_TYPES = ['image/png', 'image/jpeg'] as const;
