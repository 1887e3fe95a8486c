/** System data schemas (spec §2.12). */
import { Type, type Static } from 'typebox';
import { Nullable, Uuid } from '../schema-kit';
import { LocalizedText } from './common';

/** A classification method; its id is what a building's `classificationType` takes. */
export const ClassificationMethod = Type.Object(
  {
    name: LocalizedText,
    classificationTypeId: Uuid({ description: 'The underlying classification type.' }),
    classificationLevelTypeId: Nullable(Uuid({ description: 'The underlying classification level type.' })),
    id: Uuid(),
  },
  { additionalProperties: false },
);
/** A classification method. */
export type ClassificationMethod = Static<typeof ClassificationMethod>;
