/**
 * The status messages of building and portfolio files, as structured data and as the English sentences the server
 * writes (`statusMessage`). The server formats them here; the app parses them back, so it can say them in the user's
 * language, and shows the text as it came when a server words them otherwise.
 */
import type { NotCountedReason } from './api/schemas/import-report';

/** What is wrong with a spreadsheet row the import rejected. */
export type RowProblem =
  | { kind: 'no-id' }
  | { kind: 'no-computed-value'; field: string; formula: string }
  | { kind: 'not-a-number'; field: string; value: string }
  | { kind: 'negative'; field: string }
  /** `firstSheet` is null when the first row with that id is on the same sheet. */
  | { kind: 'duplicate-id'; id: string; firstSheet: string | null; firstRow: number };

export interface RejectedRow {
  sheet: string;
  row: number;
  problems: RowProblem[];
}

/** A rejected spreadsheet row, or another rejection (an IFC element) as its text. */
export type Rejection = ({ kind: 'sheet-row' } & RejectedRow) | { kind: 'text'; text: string };

/** How an import went: `rejected` counts every rejection, `shown` holds the first of them. */
export interface ImportSummary {
  imported: number;
  rejected: number;
  shown: Rejection[];
}

/** A reason of an element's own not to count (shared/counting.ts): every reason but its file's. */
export type ElementReason = Exclude<NotCountedReason, 'file-not-counted'>;

/** The reasons of an element's own, in the order they are checked. */
export const ELEMENT_REASONS = ['no-material', 'no-quantity', 'no-mass', 'no-building-layer', 'no-circular-data'] as const satisfies readonly ElementReason[];

/**
 * The import report in one line: how many count, why the others do not, and what was assumed to get there.
 * `counted` plus the elements of every reason is `elements`.
 */
export interface ReportSummary {
  /** Elements that count; when the file is not active, that will once it is. */
  counted: number;
  elements: number;
  /** False when the file is not active. */
  active: boolean;
  /** The elements that do not count for a reason of their own, in the order of `ELEMENT_REASONS`, none with 0. */
  notCounted: { reason: ElementReason; elements: number }[];
  mappedByKeyword: number;
  measuredFromGeometry: number;
  layerFromNames: number;
  layerFromClass: number;
}

export type StatusSentence =
  | { kind: 'created' }
  | { kind: 'uploaded' }
  | { kind: 'waiting-for-import' }
  | { kind: 'importing' }
  | { kind: 'refinement-queued' }
  | { kind: 'refining' }
  | { kind: 'mapping' }
  | { kind: 'passport-queued' }
  | { kind: 'passport-computing' }
  | { kind: 'passport-writing' }
  | { kind: 'passport-generated'; count: number; of: 'elements' | 'buildings' }
  | { kind: 'refinement-failed'; reason: string }
  | { kind: 'passport-failed'; reason: string }
  | ({ kind: 'import-summary' } & ImportSummary)
  | ({ kind: 'report-summary' } & ReportSummary);

const fixedSentences = {
  created: 'Created; waiting for an upload.',
  uploaded: 'Uploaded.',
  'waiting-for-import': 'Uploaded; waiting for the import to start.',
  importing: 'Importing: elements can be created, replaced and deleted.',
  'refinement-queued': 'Refinement queued.',
  refining: 'Refining: classification, brand layers, phases and mapping.',
  mapping: 'Mapping: computing the validation figures.',
  'passport-queued': 'Passport generation queued.',
  'passport-computing': 'Generating the passport: computing the figures.',
  'passport-writing': 'Generating the passport: writing the document.',
} as const satisfies Partial<Record<StatusSentence['kind'], string>>;

type FixedSentence = keyof typeof fixedSentences;

const failurePrefixes = {
  'refinement-failed': 'The refinement failed: ',
  'passport-failed': 'The passport could not be generated: ',
} as const;

/** Rows of an import listed in its status message at most. */
export const shownRejectedRows = 20;

export function formatRowProblem(problem: RowProblem): string {
  switch (problem.kind) {
    case 'no-id':
      return 'no id';
    case 'no-computed-value':
      return `${problem.field} "=${problem.formula}" has no computed value`;
    case 'not-a-number':
      return `${problem.field} "${problem.value}" is not a number`;
    case 'negative':
      return `negative ${problem.field}`;
    case 'duplicate-id': {
      const where = problem.firstSheet === null ? `row ${problem.firstRow}` : `sheet ${problem.firstSheet} row ${problem.firstRow}`;
      return `duplicate id ${problem.id} (first in ${where})`;
    }
  }
}

export function formatRejectedRow(row: RejectedRow): string {
  return `sheet ${row.sheet} row ${row.row}: ${row.problems.map(formatRowProblem).join(', ')}`;
}

/** The sentence of an import: `rejected` rejections in all, the texts of the first of them as the importers word them. */
export function formatImportSummary(imported: number, rejected: number, shown: readonly string[]): string {
  if (rejected === 0) return `${imported} elements imported.`;
  const more = rejected > shown.length ? `; and ${rejected - shown.length} more` : '';
  return `${imported} elements imported, ${rejected} rejected: ${shown.join('; ')}${more}.`;
}

/** What the elements of a reason lack, after "has no" or "have no". */
function reasonWords(reason: ElementReason, one: boolean): string {
  switch (reason) {
    case 'no-material':
      return 'material';
    case 'no-quantity':
      return 'volume or weight';
    case 'no-mass':
      return `mass (${one ? 'its' : 'their'} material has no specific weight)`;
    case 'no-building-layer':
      return 'building layer';
    case 'no-circular-data':
      return 'circular data';
  }
}

const assumptionWords = [
  ['mappedByKeyword', 'mapped by keyword'],
  ['measuredFromGeometry', 'with quantities from geometry'],
  ['layerFromNames', 'with a building layer from layer names'],
  ['layerFromClass', 'with a building layer inferred from the IFC class'],
] as const satisfies readonly (readonly [keyof ReportSummary, string])[];

function formatReportSummary(summary: ReportSummary): string {
  const counting = summary.active
    ? `${summary.counted} of ${summary.elements} elements count in the circularity index`
    : `${summary.counted} of ${summary.elements} elements will count in the circularity index once the file is active`;
  const reasons = summary.notCounted.map(({ reason, elements }) => `${elements} ${elements === 1 ? 'has' : 'have'} no ${reasonWords(reason, elements === 1)}`);
  const assumed = assumptionWords.filter(([field]) => summary[field] > 0).map(([field, words]) => `${summary[field]} ${words}`);
  return (
    `${counting}${reasons.length === 0 ? '' : `: ${reasons.join(', ')}`}.` + (assumed.length === 0 ? '' : ` Assumed: ${assumed.join(', ')}.`)
  );
}

function formatSentence(sentence: StatusSentence): string {
  switch (sentence.kind) {
    case 'import-summary': {
      const shown = sentence.shown.map((rejection) => (rejection.kind === 'text' ? rejection.text : formatRejectedRow(rejection)));
      return formatImportSummary(sentence.imported, sentence.rejected, shown);
    }
    case 'report-summary':
      return formatReportSummary(sentence);
    case 'passport-generated':
      return `Passport generated (${sentence.count} ${sentence.of}).`;
    case 'refinement-failed':
    case 'passport-failed':
      return `${failurePrefixes[sentence.kind]}${sentence.reason}`;
    default:
      return fixedSentences[sentence.kind];
  }
}

/** The English message the server stores for these sentences. */
export function formatStatusMessage(...sentences: StatusSentence[]): string {
  return sentences.map(formatSentence).join(' ');
}

/** A reader over the message: each `take` matches at the current position and moves past what it matched. */
class Reader {
  private at = 0;

  constructor(private readonly text: string) {}

  get done(): boolean {
    return this.at === this.text.length;
  }

  get rest(): string {
    return this.text.slice(this.at);
  }

  take(pattern: RegExp): RegExpExecArray | null {
    const sticky = new RegExp(pattern.source, 'uy');
    sticky.lastIndex = this.at;
    const match = sticky.exec(this.text);
    if (match !== null) this.at = sticky.lastIndex;
    return match;
  }

  /** Runs `read`, and moves back to where it was when it answers null. */
  attempt<T>(read: () => T | null): T | null {
    const start = this.at;
    const value = read();
    if (value === null) this.at = start;
    return value;
  }
}

const count = (text: string | undefined): number => (text === undefined ? 0 : Number(text));

function readProblem(reader: Reader): RowProblem | null {
  if (reader.take(/no id/) !== null) return { kind: 'no-id' };
  let match = reader.take(/negative (\w+)/);
  if (match !== null) return { kind: 'negative', field: match[1] ?? '' };
  match = reader.take(/(\w+) "=(.*?)" has no computed value/);
  if (match !== null) return { kind: 'no-computed-value', field: match[1] ?? '', formula: match[2] ?? '' };
  match = reader.take(/(\w+) "(.*?)" is not a number/);
  if (match !== null) return { kind: 'not-a-number', field: match[1] ?? '', value: match[2] ?? '' };
  match = reader.take(/duplicate id (.*?) \(first in (?:sheet (.*?) )?row (\d+)\)/);
  if (match !== null) return { kind: 'duplicate-id', id: match[1] ?? '', firstSheet: match[2] ?? null, firstRow: Number(match[3]) };
  return null;
}

function readRejectedRow(reader: Reader): RejectedRow | null {
  const head = reader.take(/sheet (.*?) row (\d+): /);
  if (head === null) return null;
  const problems: RowProblem[] = [];
  do {
    const problem = readProblem(reader);
    if (problem === null) return null;
    problems.push(problem);
  } while (reader.take(/, (?=no id|negative |\w+ "|duplicate id )/) !== null);
  if (reader.take(/(?=; |\.(?: |$))/) === null) return null;
  return { sheet: head[1] ?? '', row: Number(head[2]), problems };
}

function readImport(reader: Reader): StatusSentence | null {
  const clean = reader.take(/(\d+) elements imported\./);
  if (clean !== null) return { kind: 'import-summary', imported: Number(clean[1]), rejected: 0, shown: [] };
  const head = reader.take(/(\d+) elements imported, (\d+) rejected: /);
  if (head === null) return null;
  const shown: Rejection[] = [];
  do {
    const row = reader.attempt(() => readRejectedRow(reader));
    const other = row === null ? reader.take(/.+?(?=; |\.(?: |$))/) : null;
    if (row !== null) shown.push({ kind: 'sheet-row', ...row });
    else if (other !== null) shown.push({ kind: 'text', text: other[0] });
    else return null;
  } while (reader.take(/; (?!and \d+ more)/) !== null);
  const rejected = Number(head[2]);
  const more = reader.take(/; and (\d+) more/);
  if (reader.take(/\./) === null || shown.length + count(more?.[1]) !== rejected) return null;
  return { kind: 'import-summary', imported: Number(head[1]), rejected, shown };
}

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');

const reasonByWords = new Map<string, ElementReason>(
  ELEMENT_REASONS.flatMap((reason) => [reasonWords(reason, true), reasonWords(reason, false)].map((words) => [words, reason] as const)),
);

function readAssumptions(reader: Reader, summary: ReportSummary): boolean {
  do {
    const part = reader.attempt(() => {
      const number = reader.take(/(\d+) /);
      const assumption = assumptionWords.find(([, words]) => reader.take(new RegExp(escaped(words))) !== null);
      return number === null || assumption === undefined ? null : { field: assumption[0], value: Number(number[1]) };
    });
    if (part === null) return false;
    summary[part.field] = part.value;
  } while (reader.take(/, /) !== null);
  return reader.take(/\./) !== null;
}

function readReport(reader: Reader): StatusSentence | null {
  const head = reader.take(/(\d+) of (\d+) elements (count in the circularity index|will count in the circularity index once the file is active)/);
  if (head === null) return null;
  const notCounted: ReportSummary['notCounted'] = [];
  if (reader.take(/: /) !== null) {
    do {
      const part = reader.take(/(\d+) (?:has|have) no (material|volume or weight|mass \((?:its|their) material has no specific weight\)|building layer|circular data)/);
      const reason = part === null ? undefined : reasonByWords.get(part[2] ?? '');
      if (part === null || reason === undefined) return null;
      notCounted.push({ reason, elements: Number(part[1]) });
    } while (reader.take(/, /) !== null);
  }
  if (reader.take(/\./) === null) return null;
  const summary: ReportSummary = {
    counted: Number(head[1]),
    elements: Number(head[2]),
    active: head[3] === 'count in the circularity index',
    notCounted,
    mappedByKeyword: 0,
    measuredFromGeometry: 0,
    layerFromNames: 0,
    layerFromClass: 0,
  };
  if (reader.take(/ Assumed: /) !== null && !readAssumptions(reader, summary)) return null;
  return { kind: 'report-summary', ...summary };
}

function readSentence(reader: Reader): StatusSentence | null {
  for (const [kind, prefix] of Object.entries(failurePrefixes) as [keyof typeof failurePrefixes, string][]) {
    if (reader.take(new RegExp(escaped(prefix))) !== null) {
      const reason = reader.rest;
      reader.take(/.*/su);
      return { kind, reason };
    }
  }
  for (const [kind, text] of Object.entries(fixedSentences) as [FixedSentence, string][]) {
    if (reader.take(new RegExp(escaped(text))) !== null) return { kind };
  }
  const generated = reader.take(/Passport generated \((\d+) (elements|buildings)\)\./);
  if (generated !== null) return { kind: 'passport-generated', count: Number(generated[1]), of: generated[2] === 'buildings' ? 'buildings' : 'elements' };
  return reader.attempt(() => readImport(reader)) ?? reader.attempt(() => readReport(reader));
}

/**
 * A file's message with its report summary put in place of the one it had (after the import's line, which stays). A
 * message worded otherwise is replaced by the summary.
 */
export function withReportSummary(message: string | null, summary: ReportSummary): string {
  const kept = (parseStatusMessage(message ?? '') ?? []).filter((sentence) => sentence.kind !== 'report-summary');
  return formatStatusMessage(...kept, { kind: 'report-summary', ...summary });
}

/** A file's message as it reads once the file is activated or deactivated: the report summary says whether it counts. */
export function withFileActive(message: string | null, active: boolean): string | null {
  const sentences = parseStatusMessage(message ?? '');
  if (sentences === null || !sentences.some((sentence) => sentence.kind === 'report-summary')) return message;
  return formatStatusMessage(...sentences.map((sentence) => (sentence.kind === 'report-summary' ? { ...sentence, active } : sentence)));
}

/** The sentences of a message the server wrote, or null when any part of it is worded otherwise. */
export function parseStatusMessage(text: string): StatusSentence[] | null {
  const reader = new Reader(text.trim());
  const sentences: StatusSentence[] = [];
  while (!reader.done) {
    if (sentences.length > 0 && reader.take(/ /) === null) return null;
    const sentence = readSentence(reader);
    if (sentence === null) return null;
    sentences.push(sentence);
  }
  return sentences.length === 0 ? null : sentences;
}
