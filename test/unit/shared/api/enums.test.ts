import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import {
  BuildingFileStatuses,
  BuildingFileStatusesInputSchema,
  BuildingFileStatusesSchema,
  BuildingLevel,
  MatchType,
  MatchTypeInputSchema,
  Phase,
  PriceUnit,
  PriceUnitInputSchema,
  assertNever,
  enumValue,
} from '../../../../shared/api/enums';
import { Nullable } from '../../../../shared/api/schema-kit';

describe('enum request schemas', () => {
  const statusInput = Compile(BuildingFileStatusesInputSchema);

  it('accept every value and every name in any letter case', () => {
    for (const [name, value] of Object.entries(BuildingFileStatuses)) {
      expect(statusInput.Check(value)).toBe(true);
      expect(statusInput.Check(name)).toBe(true);
      expect(statusInput.Check(name.toLowerCase())).toBe(true);
      expect(statusInput.Check(name.toUpperCase())).toBe(true);
    }
    expect(statusInput.Check('unknownimportFILE')).toBe(true);
  });

  it('reject unknown values, unknown names, partial names and other types', () => {
    for (const input of [9, 100, -1, 3.5, 'Map', 'Mappedx', ' Mapped', '3', '', null, true, {}]) {
      expect(statusInput.Check(input), JSON.stringify(input)).toBe(false);
    }
  });

  it('treat regular-expression characters in names literally', () => {
    const priceUnit = Compile(PriceUnitInputSchema);
    expect(priceUnit.Check('M3')).toBe(true);
    expect(priceUnit.Check('mX')).toBe(false);
    expect(priceUnit.Check('TOZ')).toBe(true);
  });
});

describe('enum response schemas', () => {
  it('accept only the integer values', () => {
    const status = Compile(BuildingFileStatusesSchema);
    expect(status.Check(99)).toBe(true);
    expect(status.Check('Mapped')).toBe(false);
    expect(status.Check(9)).toBe(false);
  });

  it('made nullable, accept null as well', () => {
    const status = Compile(Nullable(BuildingFileStatusesSchema));
    expect(status.Check(null)).toBe(true);
    expect(status.Check(3)).toBe(true);
    expect(status.Check(4.5)).toBe(false);
    const match = Compile(Nullable(MatchTypeInputSchema));
    expect(match.Check(null)).toBe(true);
    expect(match.Check('ean')).toBe(true);
  });
});

describe('enumValue', () => {
  it('normalises names in any letter case and values to the value', () => {
    expect(enumValue(BuildingFileStatuses, 'Mapped')).toBe(3);
    expect(enumValue(BuildingFileStatuses, 'mapped')).toBe(3);
    expect(enumValue(BuildingFileStatuses, 'MAPPED')).toBe(3);
    expect(enumValue(BuildingFileStatuses, 3)).toBe(3);
    expect(enumValue(MatchType, 'startwith')).toBe(MatchType.StartWith);
    expect(enumValue(PriceUnit, 'M3')).toBe(PriceUnit.m3);
  });

  it('answers undefined for what the schema rejects', () => {
    expect(enumValue(BuildingFileStatuses, 9)).toBeUndefined();
    expect(enumValue(BuildingFileStatuses, 'Map')).toBeUndefined();
    expect(enumValue(BuildingFileStatuses, '3')).toBeUndefined();
    expect(enumValue(BuildingFileStatuses, 'toString')).toBeUndefined();
  });
});

describe('fixed identifiers', () => {
  it('lists the seven building levels with distinct ids in the financial order', () => {
    expect(Object.values(BuildingLevel).map((level) => level.label)).toEqual([
      'Site',
      'Structure',
      'Skin',
      'Services',
      'Space plan',
      'Stuff',
      'Unknown',
    ]);
    expect(new Set(Object.values(BuildingLevel).map((level) => level.id)).size).toBe(7);
  });

  it('has three phases with distinct ids', () => {
    expect(Object.keys(Phase)).toEqual(['Demolition', 'New', 'Existing']);
    expect(new Set(Object.values(Phase).map((phase) => phase.id)).size).toBe(3);
  });
});

describe('assertNever', () => {
  it('throws when reached', () => {
    expect(() => assertNever('surprise' as never, 'kind')).toThrow('Unexpected kind: "surprise"');
  });
});
