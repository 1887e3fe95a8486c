import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  coarserNlSfbCode,
  convertNlSfbCodeList,
  generateSeedFiles,
  parseSearchCriterion,
} from '../../../../../server/store/seed/generate';

describe('generate', () => {
  it('produces exactly the committed seed files from the reference files', async () => {
    const files = await generateSeedFiles();
    expect(files.map((file) => file.path.split(/[\\/]/).at(-1))).toEqual(['platform-materials.json', 'nl-sfb.json']);
    for (const file of files) {
      // A failure here means a reference file or the conversion changed: run `npm run seed:generate` and commit.
      expect(await readFile(file.path, 'utf8'), file.path).toBe(file.content);
    }
  });

  it('reads wildcards of search criteria as match types', () => {
    expect(parseSearchCriterion('*Beton (C30/35)*', 'A1')).toEqual({ value: 'Beton (C30/35)', matchType: 10 });
    expect(parseSearchCriterion('gibo', 'A1')).toEqual({ value: 'gibo', matchType: 11 });
    expect(parseSearchCriterion('houtwolcem*', 'A1')).toEqual({ value: 'houtwolcem', matchType: 12 });
    expect(parseSearchCriterion('*glas', 'A1')).toEqual({ value: 'glas', matchType: 13 });
    expect(() => parseSearchCriterion('**', 'A1')).toThrow(/nothing to match/);
    expect(() => parseSearchCriterion('*a*b*', 'A1')).toThrow(/wildcard inside/);
  });

  it('decodes the code list as ISO-8859-1, unquotes names and links each code to the next coarser one', () => {
    const latin1 = Buffer.from(
      '2-\tRUWBOUW\t1\t-2000151\r\n' +
        '21\tBuitenwanden\t2\t-2000011\r\n' +
        '21.2\t"buitenwanden; constructief"\t3\t-2000011\r\n' +
        '21.25\t"ramen draaiend aan één kant; ""hygiëne"""\t3\t-2000011\r\n' +
        '00\twww.revitlog.nl\t1\t\r\n',
      'latin1',
    );
    expect(convertNlSfbCodeList(latin1).codes).toEqual([
      { code: '2-', parentCode: null, name: 'RUWBOUW' },
      { code: '21', parentCode: '2-', name: 'Buitenwanden' },
      { code: '21.2', parentCode: '21', name: 'buitenwanden; constructief' },
      { code: '21.25', parentCode: '21.2', name: 'ramen draaiend aan één kant; "hygiëne"' },
    ]);
  });

  it('walks NL-SfB codes to coarser ones, also in the 0- group', () => {
    expect(coarserNlSfbCode('21.24')).toBe('21.2');
    expect(coarserNlSfbCode('21.2')).toBe('21');
    expect(coarserNlSfbCode('21')).toBe('2-');
    expect(coarserNlSfbCode('2-')).toBeNull();
    expect(coarserNlSfbCode('0-.10')).toBe('0-.1');
    expect(coarserNlSfbCode('0-.1')).toBe('0-');
  });
});
