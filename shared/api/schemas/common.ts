/** Schemas shared by several resources. */
import { Type, type Static } from 'typebox';
import { Maybe } from '../schema-kit';

/**
 * A text per language (material, product and classification names). Only languages that have a text are listed, as
 * in the platform's examples (`{ "en": "material name", "nl": "materiaalnaam" }`).
 */
export const LocalizedText = Type.Object(
  {
    nl: Type.Optional(Type.String()),
    en: Type.Optional(Type.String()),
    de: Type.Optional(Type.String()),
    it: Type.Optional(Type.String()),
    fr: Type.Optional(Type.String()),
    es: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
/** A text per language, as answered. */
export type LocalizedText = Static<typeof LocalizedText>;

/** A text per language, as sent; a null language is the same as an absent one. */
export const LocalizedTextRequest = Type.Object({
  nl: Maybe(Type.String()),
  en: Maybe(Type.String()),
  de: Maybe(Type.String()),
  it: Maybe(Type.String()),
  fr: Maybe(Type.String()),
  es: Maybe(Type.String()),
});
/** A text per language, as sent. */
export type LocalizedTextRequest = Static<typeof LocalizedTextRequest>;
