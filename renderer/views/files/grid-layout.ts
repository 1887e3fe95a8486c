/** The elements grid's columns across: the checkbox column, then each shown column at its width. */
import type { ElementColumn } from './element-columns';

/** Width of the checkbox column, pixels; the id column is pinned right after it. */
export const SELECT_WIDTH = 40;

/** The CSS grid template of the header and of every row. */
export function columnTemplate(columns: readonly ElementColumn[]): string {
  return `${SELECT_WIDTH}px ${columns.map((column) => `${column.width}px`).join(' ')}`;
}

/** The width of the header and of every row, pixels. */
export function gridWidth(columns: readonly ElementColumn[]): number {
  return SELECT_WIDTH + columns.reduce((sum, column) => sum + column.width, 0);
}
