import { describe, expect, it } from 'vitest';
import { assertNever } from '../../../../shared/api/enums';
import type { ODataFilter, ODataValue } from '../../../../server/odata/ast';
import { ELEMENT_FIELDS, ODataError, parseElementQuery } from '../../../../server/odata/index';
import { MAX_NESTING_DEPTH, MAX_OPTION_LENGTH } from '../../../../server/odata/bounds';
import { parseFilter } from '../../../../server/odata/filter-parser';

/** A compact rendering of the AST: grouping shows precedence, fields show their path. */
function show(node: ODataFilter | ODataValue): string {
  switch (node.kind) {
    case 'field': return node.path;
    case 'string': return `'${node.value}'`;
    case 'number': return Object.is(node.value, -0) ? '-0' : String(node.value);
    case 'null': return 'null';
    case 'case': return `${node.function}(${show(node.argument)})`;
    case 'boolean': return String(node.value);
    case 'compare': return `(${show(node.left)} ${node.operator} ${show(node.right)})`;
    case 'stringPredicate': return `${node.function}(${show(node.text)}, ${show(node.search)})`;
    case 'and': return `(${node.operands.map(show).join(' and ')})`;
    case 'or': return `(${node.operands.map(show).join(' or ')})`;
    case 'not': return `not ${show(node.operand)}`;
    default: return assertNever(node);
  }
}

const filter = (text: string): string => show(parseFilter(text, ELEMENT_FIELDS));

/** The ODataError a query throws, as `position: detail`. */
function rejection(raw: Record<string, unknown>): string {
  try {
    parseElementQuery(raw);
  } catch (error) {
    if (error instanceof ODataError) return `${error.position}: ${error.detail}`;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(raw)}`);
}

const filterRejection = (text: string): string => rejection({ $filter: text });

describe('$filter accepts', () => {
  it.each([
    // comparison operators, case-insensitive as ABNF quoted strings are
    ["name eq 'Wall'", "(name eq 'Wall')"],
    ["name ne 'Wall'", "(name ne 'Wall')"],
    ['volume gt 1', '(volume gt 1)'],
    ['volume ge 1', '(volume ge 1)'],
    ['volume lt 1', '(volume lt 1)'],
    ['volume le 1', '(volume le 1)'],
    ["name EQ 'a' AND volume Lt 2.55", "((name eq 'a') and (volume lt 2.55))"],
    ["name Eq 'a' OR volume lT 2", "((name eq 'a') or (volume lt 2))"],
    // precedence: not > relational > equality > and > or
    ["name eq 'a' or name eq 'b' and volume gt 1", "((name eq 'a') or ((name eq 'b') and (volume gt 1)))"],
    ["(name eq 'a' or name eq 'b') and volume gt 1", "(((name eq 'a') or (name eq 'b')) and (volume gt 1))"],
    ['true and false and true or false or true', '((true and false and true) or false or true)'],
    ["not contains(name,'a') and true", "(not contains(name, 'a') and true)"],
    ["not (name eq 'a')", "not (name eq 'a')"],
    ['not not true', 'not not true'],
    ["NOT startswith(name,'a')", "not startswith(name, 'a')"],
    // whitespace: RWS around operators (space or tab, any run), BWS inside parentheses and argument lists
    ["name  eq\t\t'a'", "(name eq 'a')"],
    ["( name eq 'a' )", "(name eq 'a')"],
    ["(\tname eq 'a')", "(name eq 'a')"],
    ["contains( name , 'a' )", "contains(name, 'a')"],
    ["((((name eq 'a'))))", "(name eq 'a')"],
    // functions, names case-insensitive, nested case conversions, literal first arguments
    ["contains(name,'a')", "contains(name, 'a')"],
    ["startswith(name,'a')", "startswith(name, 'a')"],
    ["endswith(name,'a')", "endswith(name, 'a')"],
    ["CONTAINS(name,'a')", "contains(name, 'a')"],
    ["ToLower(name) eq 'a'", "(tolower(name) eq 'a')"],
    ["toupper(name) eq 'A'", "(toupper(name) eq 'A')"],
    ["tolower(toupper(tolower(name))) eq 'a'", "(tolower(toupper(tolower(name))) eq 'a')"],
    ["contains('abc',name)", "contains('abc', name)"],
    ["contains(tolower(name),tolower('A'))", "contains(tolower(name), tolower('A'))"],
    ['contains(name,materialName)', 'contains(name, materialName)'],
    ['contains(name,null)', 'contains(name, null)'],
    // literals
    ['name eq null', '(name eq null)'],
    ['null ne name', '(null ne name)'],
    ['null eq null', '(null eq null)'],
    ['volume eq -1', '(volume eq -1)'],
    ['volume eq +1', '(volume eq 1)'],
    ['volume eq -0', '(volume eq -0)'],
    ['volume eq 007', '(volume eq 7)'],
    ['volume eq 2.5', '(volume eq 2.5)'],
    ['volume eq -2.5e-3', '(volume eq -0.0025)'],
    ['volume eq 1E10', '(volume eq 10000000000)'],
    ['volume eq 0.1e+2', '(volume eq 10)'],
    ['volume eq 1e-400', '(volume eq 0)'],
    ["name eq 'O''Neil'", "(name eq 'O'Neil')"],
    ["name eq ''", "(name eq '')"],
    ["name eq ''''", "(name eq ''')"],
    ["name eq 'béton 😀 \\ % _'", "(name eq 'béton 😀 \\ % _')"],
    ["name eq ' and '' or not '", "(name eq ' and ' or not ')"],
    ['true', 'true'],
    ['FALSE', 'false'],
    ['(true)', 'true'],
    ["'a' lt 'b'", "('a' lt 'b')"],
    ['1 eq 1', '(1 eq 1)'],
    // nested paths and uuids (guid literals and quoted uuids become lowercase strings)
    ['mapping/type eq 10', '(mapping/type eq 10)'],
    ["classificationMatch/code eq '21.24'", "(classificationMatch/code eq '21.24')"],
    ['buildingFileId eq 26A9CCAE-CA9D-4CF0-9683-503321791978', "(buildingFileId eq '26a9ccae-ca9d-4cf0-9683-503321791978')"],
    ["mapping/id eq '26A9CCAE-CA9D-4CF0-9683-503321791978'", "(mapping/id eq '26a9ccae-ca9d-4cf0-9683-503321791978')"],
    ['26a9ccae-ca9d-4cf0-9683-503321791978 eq phaseMatch/id', "('26a9ccae-ca9d-4cf0-9683-503321791978' eq phaseMatch/id)"],
    ['mapping/id ne null', '(mapping/id ne null)'],
    ['mapping/id eq phaseMatch/id', '(mapping/id eq phaseMatch/id)'],
  ])('%s', (text, expected) => {
    expect(filter(text)).toBe(expected);
  });

  it('maps every scalar wire path to its column', () => {
    for (const [path, field] of Object.entries(ELEMENT_FIELDS)) {
      if (field.type === 'string-array') continue;
      const parsed = parseFilter(`${path} eq null`, ELEMENT_FIELDS);
      expect(parsed.kind === 'compare' && parsed.left.kind === 'field' ? [parsed.left.column, parsed.left.type] : undefined)
        .toEqual([field.column, field.type]);
    }
  });

  it('records where each node starts', () => {
    const parsed = parseFilter("name eq 'a' and not contains(tolower(name),'b')", ELEMENT_FIELDS);
    expect(parsed).toMatchObject({
      kind: 'and',
      position: 0,
      operands: [
        { kind: 'compare', position: 0, left: { position: 0 }, right: { position: 8 } },
        { kind: 'not', position: 16, operand: { kind: 'stringPredicate', position: 20, text: { kind: 'case', position: 29, argument: { position: 37 } }, search: { position: 43 } } },
      ],
    });
  });
});

describe('$filter rejects, naming the position', () => {
  it.each([
    // syntax
    ['', "0: expected an expression, found the end"],
    [" name eq 'a'", '0: unexpected whitespace'],
    ["name eq 'a' ", '11: unexpected whitespace at the end'],
    ["name eq'a'", "7: expected a space after 'eq'"],
    ['name eq', "7: expected an expression after 'eq'"],
    ['name  eq ', "9: expected an expression, found the end"],
    ["name eq 'a' and", "15: expected an expression after 'and'"],
    ["name eq 'a' foo", "12: expected an operator ('and', 'or', 'eq', …) or the end, found 'foo'"],
    ["name eq 'a')", "11: expected an operator ('and', 'or', 'eq', …) or the end, found ')'"],
    ["(name eq 'a'", "12: expected an operator or ')', found the end"],
    ["(name eq 'a' foo)", "13: expected an operator or ')', found 'foo'"],
    ['()', "1: expected an expression, found ')'"],
    ["name eq 'a'(", "11: found '(' directly after an operand"],
    ["'O'Neil' eq name", "3: found 'Neil' directly after an operand"],
    ["name eq 'abc", '8: unterminated string literal'],
    ['name eq "a"', "8: double-quoted strings are not supported; quote strings with '"],
    ["name eq 'a\0'", '10: string literals cannot contain U+0000'],
    ["name eq 'a'\n", '11: unexpected character U+000A'],
    ["name\u00a0eq 'a'", '4: unexpected character U+00A0'],
    ["name eq 'a' # x", "12: unexpected character '#'"],
    ["naïve eq 'a'", '2: unexpected character U+00EF'],
    ["name eq '😀' or foo eq 1", "16: unknown field 'foo'"],
    // numbers
    ['volume eq 42.', "13: expected a digit after '.'"],
    ['volume eq .5', "10: unexpected character '.'"],
    ['volume eq 1e', '12: expected a digit in the exponent'],
    ['volume eq 1.5e+', '15: expected a digit in the exponent'],
    ['volume eq -0.314e1e2', "18: found 'e2' directly after an operand"],
    ['volume eq 12abc', "12: found 'abc' directly after an operand"],
    ['volume eq 1e400', '10: number out of range'],
    ['volume eq 2012-09-03', '14: found a number directly after an operand'],
    ['volume eq 13:52', "12: unexpected character ':'"],
    ['volume eq NaN', "10: unknown field 'NaN'"],
    // guids
    ['buildingFileId eq 01234567-89ab-cdef-0123-456789abcdeg', '53: expected a hex digit in a guid'],
    ['buildingFileId eq 01234567-89ab-cdef-456789abcdef', "41: expected '-' in a guid"],
    ["buildingFileId eq 'abc'", "18: 'abc' is not a uuid"],
    ['name eq 01234567-89ab-cdef-0123-456789abcdef', "8: cannot compare string field 'name' with a guid"],
    ['01234567-89ab-cdef-0123-456789abcdef', '0: a guid can only be compared with a uuid field'],
    // fields
    ["Name eq 'a'", "0: unknown field 'Name'"],
    ['foo eq 1', "0: unknown field 'foo'"],
    ['mapping/foo eq 1', "0: unknown field 'mapping/foo'"],
    ["name/first eq 'a'", "0: unknown field 'name/first'"],
    ['mapping eq null', "0: 'mapping' is a structured field; use one of mapping/type, mapping/id"],
    ["phaseLookup eq 'a'", "0: 'phaseLookup' is a collection, which $filter cannot use"],
    ["contains(classificationLookup,'a')", "9: 'classificationLookup' is a collection, which $filter cannot use"],
    ['mapping/ eq 1', "8: expected a property name after '/', found whitespace"],
    // types
    ["volume eq 'a'", "10: cannot compare number field 'volume' with a string"],
    ["'a' eq volume", "7: cannot compare a string with number field 'volume'"],
    ['name eq 1', "8: cannot compare string field 'name' with a number"],
    ['name eq volume', "8: cannot compare string field 'name' with number field 'volume'"],
    ['buildingFileId eq name', "18: cannot compare uuid field 'buildingFileId' with string field 'name'"],
    ["buildingFileId eq tolower('a')", "18: cannot compare uuid field 'buildingFileId' with tolower(…)"],
    ["contains(volume,'1')", "9: contains needs string arguments, found number field 'volume'"],
    ["contains(buildingFileId,'1')", "9: contains needs string arguments, found uuid field 'buildingFileId'"],
    ['contains(name,1)', '14: contains needs string arguments, found a number'],
    ['contains(name,true)', '14: contains needs string arguments, found a Boolean expression'],
    ["tolower(volume) eq 'a'", "8: tolower needs string arguments, found number field 'volume'"],
    ['volume', "0: $filter needs a Boolean operand, found number field 'volume'"],
    ['tolower(name)', '0: $filter needs a Boolean operand, found tolower(…)'],
    ["'a'", '0: $filter needs a Boolean operand, found a string'],
    ['null', '0: $filter needs a Boolean operand, found null'],
    ['not volume', "4: 'not' needs a Boolean operand, found number field 'volume'; 'not' binds tighter than comparisons, so write not (a eq b)"],
    ["not name eq 'a'", "4: 'not' needs a Boolean operand, found string field 'name'; 'not' binds tighter than comparisons, so write not (a eq b)"],
    ['not(true)', "3: expected a space after 'not'"],
    ['not', "3: expected an expression after 'not'"],
    ['true and volume', "9: 'and' needs a Boolean operand, found number field 'volume'"],
    ['volume or true', "0: 'or' needs a Boolean operand, found number field 'volume'"],
    ['true eq false', '5: Boolean values cannot be compared'],
    ["name eq 'a' eq true", '12: Boolean values cannot be compared'],
    ["name eq contains(name,'a')", '8: Boolean values cannot be compared'],
    ['volume gt 1 gt 2', '12: Boolean values cannot be compared'],
    // functions and arguments
    ["startswith(name)", '15: startswith takes 2 arguments'],
    ["endswith(name,'a','b')", '17: endswith takes 2 arguments'],
    ["tolower(name,'a') eq 'a'", '12: tolower takes 1 argument'],
    ["tolower() eq 'a'", "8: expected an expression, found ')'"],
    ["contains(name 'a')", "14: expected ',', found a string"],
    ["contains(name,'a'", "17: expected ')', found the end"],
    ["substring(name,1) eq 'a'", "0: unsupported function 'substring'"],
    ["volume gt 1 and substring(name,1) eq 'a'", "16: unsupported function 'substring'"],
    ['length(name) eq 1', "0: unsupported function 'length'"],
    ["indexof(name,'a') eq 1", "0: unsupported function 'indexof'"],
    ["concat(name,'a') eq 'b'", "0: unsupported function 'concat'"],
    ["trim(name) eq 'a'", "0: unsupported function 'trim'"],
    ["matchesPattern(name,'a')", "0: unsupported function 'matchesPattern'"],
    ['year(name) eq 1', "0: unsupported function 'year'"],
    ['round(volume) eq 1', "0: unsupported function 'round'"],
    ['floor(volume) eq 1', "0: unsupported function 'floor'"],
    ['now() eq 1', "0: unsupported function 'now'"],
    ['cast(volume,Edm.String) eq 1', "0: unsupported function 'cast'"],
    ['isof(Model.Customer)', "0: unsupported function 'isof'"],
    ["hassubset(phaseLookup,['a'])", "0: unsupported function 'hassubset'"],
    ['geo.distance(a,b) lt 1', "0: unsupported function 'geo.distance'"],
    ['Model.Available() eq 1', "0: unsupported function 'Model.Available'"],
    ['case(true:1) eq 1', "0: unsupported function 'case'"],
    // lambdas and the other operators
    ["phaseLookup/any(p:p eq 'a')", '12: lambda operators (any, all) are not supported'],
    ['phaseLookup/all(p:true)', '12: lambda operators (any, all) are not supported'],
    ['any(p:true)', '0: lambda operators (any, all) are not supported'],
    ['volume add 1 eq 2', "7: the 'add' operator is not supported"],
    ['volume sub 1 eq 2', "7: the 'sub' operator is not supported"],
    ['volume mul 1 eq 2', "7: the 'mul' operator is not supported"],
    ['volume div 1 eq 2', "7: the 'div' operator is not supported"],
    ['volume divby 1 eq 2', "7: the 'divby' operator is not supported"],
    ['volume eq 2 MOD 1', "12: the 'MOD' operator is not supported"],
    ["name in ('a','b')", "5: the 'in' operator is not supported"],
    ["name has 'a'", "5: the 'has' operator is not supported"],
    ['-volume eq 1', '0: the negation operator is not supported'],
    ['volume eq -volume', '10: the negation operator is not supported'],
    // other syntax of the full grammar
    ['$it eq 1', "0: '$it' is not supported"],
    ['name eq $root/x', "8: '$root' is not supported"],
    ['phaseLookup/$count gt 1', "12: '$count' is not supported"],
    ['@alias eq 1', '0: parameter aliases and annotations are not supported'],
    ['name eq @a', '8: parameter aliases and annotations are not supported'],
    ["name eq ['a']", '8: array literals are not supported'],
    ['name eq {}', '8: object literals are not supported'],
    ["name eq binary'AQ=='", "8: typed literals such as binary'…' are not supported"],
    ["name eq duration'P1D'", "8: typed literals such as duration'…' are not supported"],
    ["name eq Sales.Pattern'Yellow'", "13: unexpected '.': qualified names (type casts, enumeration values) are not supported"],
    ['Model.Available', "5: unexpected '.': qualified names (type casts, enumeration values) are not supported"],
    ['mapping/Model.Type/id eq null', "13: unexpected '.': qualified names (type casts, enumeration values) are not supported"],
  ])('%j', (text, expected) => {
    expect(filterRejection(text)).toBe(expected);
  });
});

describe('input bounds', () => {
  it('refuses options longer than 8 KiB before parsing', () => {
    expect(MAX_OPTION_LENGTH).toBe(8192);
    expect(filterRejection('x'.repeat(8193))).toBe('8192: longer than 8192 characters');
    expect(filterRejection('x'.repeat(8192))).toBe(`0: unknown field '${'x'.repeat(8192)}'`);
    for (const option of ['$orderby', '$select', '$top', '$skip']) {
      expect(rejection({ [option]: '1'.repeat(8193) })).toBe('8192: longer than 8192 characters');
    }
  });

  it.each([
    ['parentheses', (n: number) => `${'('.repeat(n)}true${')'.repeat(n)}`, 100, 100],
    ['not', (n: number) => `${'not '.repeat(n)}true`, 100, 400],
    ['function calls', (n: number) => `${'tolower('.repeat(n)}name${')'.repeat(n)} eq 'a'`, 100, 800],
    ['not and parentheses', (n: number) => `${'not ('.repeat(n)}true${')'.repeat(n)}`, 50, 250],
  ])('accepts %s nested 100 levels deep and refuses one more', (_, nest, deepest, failAt) => {
    expect(MAX_NESTING_DEPTH).toBe(100);
    expect(() => parseFilter(nest(deepest), ELEMENT_FIELDS)).not.toThrow();
    expect(filterRejection(nest(deepest + 1))).toBe(`${failAt}: nesting deeper than 100 levels`);
  });

  it('keeps long and/or chains flat', () => {
    const parsed = parseFilter(Array.from({ length: 600 }, () => 'true').join(' or '), ELEMENT_FIELDS);
    expect(parsed.kind === 'or' ? parsed.operands.length : 0).toBe(600);
  });
});

describe('$orderby', () => {
  const orderBy = (text: string): string[] =>
    parseElementQuery({ $orderby: text }).orderBy.map((item) => `${item.column} ${item.direction}`);

  it.each([
    ['name', ['name asc', 'id asc']],
    ['name desc', ['name desc', 'id asc']],
    ['name DESC', ['name desc', 'id asc']],
    ['name\tAsc', ['name asc', 'id asc']],
    ['name  desc', ['name desc', 'id asc']],
    ['name asc,volume desc', ['name asc', 'volume desc', 'id asc']],
    ['mapping/type,classificationMatch/code desc', ['mappingType asc', 'classificationMatchCode desc', 'id asc']],
    ['buildingFileId', ['buildingFileId asc', 'id asc']],
    ['id desc', ['id desc']],
    ['name,id', ['name asc', 'id asc']],
    ['name,name desc', ['name asc', 'name desc', 'id asc']],
  ])('%s', (text, expected) => {
    expect(orderBy(text)).toEqual(expected);
  });

  it('orders by id when absent', () => {
    expect(parseElementQuery({}).orderBy).toEqual([{ path: 'id', column: 'id', direction: 'asc', notNull: true }]);
  });

  it.each([
    ['', '0: expected a property path, found the end'],
    ['name,', '5: expected a property path, found the end'],
    [',name', "0: expected a property path, found ','"],
    ['name, volume', '5: expected a property path, found whitespace'],
    [' name', '0: expected a property path, found whitespace'],
    ['name ', '4: unexpected whitespace at the end'],
    ['name desc ', '9: unexpected whitespace at the end'],
    ['name up', "5: expected 'asc' or 'desc', found 'up' ($orderby accepts property paths only)"],
    ['name ge 1', "5: expected 'asc' or 'desc', found 'ge' ($orderby accepts property paths only)"],
    ['name asc desc', "8: expected ',' or the end, found whitespace"],
    ["name 'a'", "5: expected 'asc' or 'desc', found a string ($orderby accepts property paths only)"],
    ['foo', "0: unknown field 'foo'"],
    ['Name', "0: unknown field 'Name'"],
    ['mapping', "0: 'mapping' is a structured field; use one of mapping/type, mapping/id"],
    ['phaseLookup', "0: 'phaseLookup' is a collection, which $orderby cannot use"],
    ['tolower(name)', '0: $orderby accepts property paths only, not functions'],
    ['$it', "0: '$it' is not supported"],
    ['phaseLookup/$count', "12: '$count' is not supported"],
    ['name/@Core.Messages', '5: parameter aliases and annotations are not supported'],
    ['1', '0: expected a property path, found a number'],
  ])('rejects %j', (text, expected) => {
    expect(rejection({ $orderby: text })).toBe(expected);
  });
});

describe('$select', () => {
  const select = (text: string): readonly string[] => parseElementQuery({ $select: text }).select;
  const everything = Object.keys(ELEMENT_FIELDS).map((path) => path.split('/')[0]).filter((n, i, all) => all.indexOf(n) === i);

  it.each([
    ['name', ['name']],
    ['volume,name', ['name', 'volume']],
    ['mapping,id', ['id', 'mapping']],
    ['name,name', ['name']],
    ['phaseLookup,classificationMatch', ['classificationMatch', 'phaseLookup']],
  ])('%s', (text, expected) => {
    expect(select(text)).toEqual(expected);
  });

  it('selects every wire field, in wire order, for * or when absent', () => {
    expect(everything).toEqual([
      'id', 'name', 'buildingFileId', 'materialName', 'typeName', 'elementClass', 'volume', 'area', 'height', 'width',
      'length', 'weight', 'mapping', 'phaseMatch', 'brandLayerMatch', 'classificationMatch', 'phaseLookup',
      'classificationLookup', 'floor',
    ]);
    expect(select('*')).toEqual(everything);
    expect(select('name,*')).toEqual(everything);
    expect(parseElementQuery({}).select).toEqual(everything);
  });

  it.each([
    ['', '0: expected a field name, found end of input'],
    ['name,', '5: expected a field name, found end of input'],
    ['name,,id', "5: expected a field name, found ','"],
    [' name', '0: expected a field name, found U+0020'],
    ['name ', '4: unexpected character U+0020'],
    ['name, id', '5: expected a field name, found U+0020'],
    ['mapping/type', "0: nested paths are not supported in $select; select 'mapping' to get all of it"],
    ['foo', "0: unknown field 'foo'"],
    ['Name', "0: unknown field 'Name'"],
    ['materialId', "0: unknown field 'materialId'"],
    ['name($select=x)', "4: unexpected character '('"],
    ['Model.*', "0: unknown field 'Model'"],
  ])('rejects %j', (text, expected) => {
    expect(rejection({ $select: text })).toBe(expected);
  });
});

describe('$top and $skip', () => {
  it.each([
    ['0', 0],
    ['10', 10],
    ['007', 7],
    ['2147483647', 2147483647],
    ['00000000000000000001', 1],
  ])('%s', (text, expected) => {
    expect(parseElementQuery({ $top: text, $skip: text })).toMatchObject({ top: expected, skip: expected });
  });

  it('takes numbers that a route schema already coerced', () => {
    expect(parseElementQuery({ $top: 5, $skip: 0 })).toMatchObject({ top: 5, skip: 0 });
    expect(rejection({ $top: -1 })).toBe("0: expected a non-negative integer, found '-'");
    expect(rejection({ $skip: 1.5 })).toBe("1: unexpected character '.'");
  });

  it.each([
    ['', '0: expected a non-negative integer'],
    ['-1', "0: expected a non-negative integer, found '-'"],
    ['+1', "0: expected a non-negative integer, found '+'"],
    ['1.5', "1: unexpected character '.'"],
    ['1e3', "1: unexpected character 'e'"],
    [' 1', '0: expected a non-negative integer, found U+0020'],
    ['1 ', '1: unexpected character U+0020'],
    ['2147483648', '0: out of range; at most 2147483647'],
    ['99999999999999999999', '0: out of range; at most 2147483647'],
    ['ten', "0: expected a non-negative integer, found 't'"],
  ])('rejects %j', (text, expected) => {
    expect(rejection({ $top: text })).toBe(expected);
    expect(rejection({ $skip: text })).toBe(expected);
  });
});

describe('query option names', () => {
  it('recognises system options in any case and without $ (OData 4.01)', () => {
    const query = parseElementQuery({ $FILTER: 'true', OrderBy: 'name', select: 'id', Top: '1', $Skip: '2' });
    expect(query).toMatchObject({ filter: { kind: 'boolean' }, select: ['id'], top: 1, skip: 2 });
    expect(query.orderBy.map((item) => item.path)).toEqual(['name', 'id']);
  });

  it('ignores custom options and absent values', () => {
    expect(parseElementQuery({ custom: 'x', _: '123', $filter: undefined })).toMatchObject({ filter: undefined });
  });

  it.each([
    [{ $expand: 'x' }, '$expand'],
    [{ $count: 'true' }, '$count'],
    [{ $search: 'blue' }, '$search'],
    [{ $apply: 'groupby((name))' }, '$apply'],
    [{ $compute: 'x' }, '$compute'],
    [{ $format: 'json' }, '$format'],
    [{ $skiptoken: 'x' }, '$skiptoken'],
    [{ $levels: '2' }, '$levels'],
    [{ $foo: 'x' }, '$foo'],
    [{ $: 'x' }, '$'],
    [{ expand: 'x' }, 'expand'],
    [{ Count: 'true' }, 'Count'],
  ])('refuses %o', (raw, option) => {
    expect(() => parseElementQuery(raw)).toThrow(
      new ODataError(option, 0, 'unsupported query option; supported are $filter, $orderby, $select, $top and $skip'),
    );
  });

  it('refuses parameter aliases, repeated options and non-text values', () => {
    expect(() => parseElementQuery({ '@p': "'x'" })).toThrow(new ODataError('@p', 0, 'parameter aliases are not supported'));
    expect(() => parseElementQuery({ $filter: ['true', 'false'] })).toThrow(new ODataError('$filter', 0, 'given more than once'));
    expect(() => parseElementQuery({ $filter: 'true', filter: 'true' })).toThrow(new ODataError('$filter', 0, 'given more than once'));
    expect(() => parseElementQuery({ $Top: '1', top: '2' })).toThrow(new ODataError('$top', 0, 'given more than once'));
    expect(() => parseElementQuery({ $filter: 5 })).toThrow(new ODataError('$filter', 0, 'must be a single text value'));
    expect(() => parseElementQuery({ $select: { a: 1 } })).toThrow(new ODataError('$select', 0, 'must be a single text value'));
  });
});

describe('ODataError', () => {
  it('carries the option, the position and a message naming both', () => {
    let caught: unknown;
    try {
      parseElementQuery({ $filter: "name eq 'x' or substring(name,1) eq 'y'" });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ODataError);
    expect(caught).toBeInstanceOf(Error);
    expect(caught).toMatchObject({
      name: 'ODataError',
      option: '$filter',
      position: 15,
      detail: "unsupported function 'substring'",
      message: "$filter: unsupported function 'substring' at position 15",
    });
  });
});
