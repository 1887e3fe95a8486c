/**
 * The page layout both passport PDFs share: A4 with fixed margins, a cursor that moves down the page and starts a new
 * page before a block that would not fit, section headings, paragraphs, tables that repeat their header on a new page,
 * label/value grids, figure tiles, charts, and the running header and footer drawn on every page once the page count is
 * known. Every block measures itself before drawing, so text never runs into the footer or into another block.
 */
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import PDFDocument from 'pdfkit';
import type { ChartImage } from './charts';
import { passportFonts } from './fonts';
import type { PassportText } from './i18n';
import type { PassportImage } from './passport-data';
import { PALETTE } from './theme';

/** A4 in points. */
export const PAGE = { width: 595.28, height: 841.89 } as const;
/** Page margins in points: 20 mm at the sides, room for the running header and footer at the top and bottom. */
export const MARGIN = { top: 74, bottom: 70, left: 56.7, right: 56.7 } as const;
/** Width of the text column. */
export const CONTENT_WIDTH = PAGE.width - MARGIN.left - MARGIN.right;
const CONTENT_BOTTOM = PAGE.height - MARGIN.bottom;

/** Font names registered in every passport document. */
export const FONT = { regular: 'Regular', bold: 'Bold', condensed: 'Condensed', condensedBold: 'CondensedBold' } as const;
type FontName = (typeof FONT)[keyof typeof FONT];

/** A table cell: text, optionally bold, coloured, with a colour swatch before it or a bar (0..1) beside it. */
export interface Cell {
  text: string;
  bold?: boolean;
  colour?: string;
  swatch?: string;
  bar?: number | null;
  /** Font size, when not the row's. */
  size?: number;
}

/** A table column: width in points (the last column takes what is left when 0) and alignment. */
export interface Column {
  header: string;
  width: number;
  align?: 'left' | 'right';
}

/** An amount of euros, in the colour of a loss when below zero. */
export function euroCell(t: PassportText, value: number | null): Cell {
  return { text: t.f.euro(value), colour: value !== null && value < 0 ? PALETTE.negative : PALETTE.ink };
}

/** The columns of a table of figures: a label taking the width the figures leave, then the figures, right-aligned. */
export function figureColumns(label: string, ...figures: readonly (readonly [header: string, width: number])[]): Column[] {
  return [{ header: label, width: 0 }, ...figures.map(([header, width]): Column => ({ header, width, align: 'right' }))];
}

/** A key figure shown as a tile. */
export interface Tile {
  label: string;
  value: string;
}

const CELL_PADDING_X = 6;
const CELL_PADDING_Y = 4.5;
const TABLE_FONT_SIZE = 9;
const BAR_WIDTH = 64;

/** A pdfkit document for a passport, with the DejaVu fonts registered and the page cursor. */
export class PassportLayout {
  readonly doc: PDFKit.PDFDocument;
  /** Where the next block starts on the current page. */
  y: number = MARGIN.top;

  constructor(
    readonly t: PassportText,
    info: { title: string; subject: string; keywords: string; createdAt: Date },
  ) {
    this.doc = new PDFDocument({
      size: 'A4',
      margins: MARGIN,
      bufferPages: true, // the footer says "page n of N": pages stay open until N is known
      autoFirstPage: true,
      pdfVersion: '1.7',
      lang: t.m.locale,
      displayTitle: true,
      info: {
        Title: info.title,
        Author: 'Circularity Desk',
        Creator: 'Circularity Desk',
        Subject: info.subject,
        Keywords: info.keywords,
        CreationDate: info.createdAt,
      },
    });
    const fonts = passportFonts();
    this.doc.registerFont(FONT.regular, fonts.regular);
    this.doc.registerFont(FONT.bold, fonts.bold);
    this.doc.registerFont(FONT.condensed, fonts.condensed);
    this.doc.registerFont(FONT.condensedBold, fonts.condensedBold);
    this.doc.font(FONT.regular);
  }

  /** Starts a new page and puts the cursor at its top. */
  newPage(): void {
    this.doc.addPage();
    this.y = MARGIN.top;
  }

  /** Starts a new page unless `height` points still fit on this one. */
  ensure(height: number): void {
    if (this.y + height > CONTENT_BOTTOM) this.newPage();
  }

  /** Room left on this page. */
  get remaining(): number {
    return CONTENT_BOTTOM - this.y;
  }

  /** Sets font, size and colour. */
  style(font: FontName, size: number, colour: string = PALETTE.ink): PDFKit.PDFDocument {
    return this.doc.font(font).fontSize(size).fillColor(colour);
  }

  /** Height of `text` wrapped to `width` in the given font. */
  measure(text: string, font: FontName, size: number, width: number, lineGap = 1.5): number {
    return this.doc.font(font).fontSize(size).heightOfString(text, { width, lineGap });
  }

  /** Draws wrapped text at the cursor (or at `x` within `width`) and moves the cursor below it. */
  text(
    text: string,
    options: { font?: FontName; size?: number; colour?: string; x?: number; width?: number; align?: 'left' | 'right' | 'center'; lineGap?: number; after?: number } = {},
  ): void {
    const font = options.font ?? FONT.regular;
    const size = options.size ?? 9.5;
    const width = options.width ?? CONTENT_WIDTH;
    const lineGap = options.lineGap ?? 1.5;
    const height = this.measure(text, font, size, width, lineGap);
    this.ensure(height);
    this.style(font, size, options.colour).text(text, options.x ?? MARGIN.left, this.y, { width, align: options.align ?? 'left', lineGap });
    this.y += height + (options.after ?? 0);
  }

  /** A numbered section heading with an accent bar, kept on one page with `keepWith` points of what follows. */
  sectionHeading(number: number, title: string, keepWith = 120): void {
    const height = 30;
    if (this.y > MARGIN.top) this.y += 14;
    this.ensure(height + keepWith);
    const { doc } = this;
    doc.save().rect(MARGIN.left, this.y + 1, 4, 18).fill(PALETTE.accent).restore();
    this.style(FONT.bold, 15, PALETTE.primary).text(`${number}`, MARGIN.left + 12, this.y, { lineBreak: false });
    this.style(FONT.bold, 15, PALETTE.primary).text(title, MARGIN.left + 34, this.y, { width: CONTENT_WIDTH - 34, lineBreak: false });
    this.y += height;
  }

  /** A smaller heading inside a section. */
  subheading(title: string, keepWith = 60): void {
    this.y += 6;
    this.ensure(18 + keepWith);
    this.style(FONT.bold, 10.5, PALETTE.ink).text(title, MARGIN.left, this.y, { width: CONTENT_WIDTH, lineBreak: false });
    this.y += 18;
  }

  /** A paragraph of muted explanatory text. */
  paragraph(text: string, after = 8): void {
    this.text(text, { size: 8.5, colour: PALETTE.muted, lineGap: 2, after });
  }

  /** A chart image at its layout size, at `x` (default: the left margin), moving the cursor below it. */
  chart(image: ChartImage, x: number = MARGIN.left, after = 8): void {
    this.ensure(image.height);
    this.doc.image(image.png, x, this.y, { width: image.width, height: image.height });
    this.y += image.height + after;
  }

  /** A photo cropped to fill a box with rounded corners; returns false (drawing nothing) when pdfkit cannot read it. */
  photo(image: PassportImage, x: number, y: number, width: number, height: number): boolean {
    const { doc } = this;
    let opened: { width: number; height: number };
    try {
      opened = (doc as unknown as { openImage(src: Buffer): { width: number; height: number } }).openImage(image.bytes);
    } catch {
      return false;
    }
    const scale = Math.max(width / opened.width, height / opened.height);
    const drawnWidth = opened.width * scale;
    const drawnHeight = opened.height * scale;
    doc.save();
    doc.roundedRect(x, y, width, height, 6).clip();
    doc.image(image.bytes, x + (width - drawnWidth) / 2, y + (height - drawnHeight) / 2, { width: drawnWidth, height: drawnHeight });
    doc.restore();
    return true;
  }

  /** A row of equal tiles with a big value and a label under it. */
  tiles(tiles: readonly Tile[], x: number = MARGIN.left, width: number = CONTENT_WIDTH, after = 10): void {
    const gap = 8;
    const tileWidth = (width - gap * (tiles.length - 1)) / tiles.length;
    const inner = tileWidth - 20;
    const valueHeight = Math.max(...tiles.map((tile) => this.measure(tile.value, FONT.bold, 16, inner, 0)));
    const labelHeight = Math.max(...tiles.map((tile) => this.measure(tile.label, FONT.regular, 8, inner, 1)));
    const height = 12 + valueHeight + 4 + labelHeight + 12;
    this.ensure(height);
    tiles.forEach((tile, index) => {
      const left = x + index * (tileWidth + gap);
      this.doc.save().roundedRect(left, this.y, tileWidth, height, 4).fill(PALETTE.tint).restore();
      this.doc.save().rect(left, this.y, 3, height).fill(PALETTE.accent).restore();
      this.style(FONT.bold, 16, PALETTE.primary).text(tile.value, left + 12, this.y + 12, { width: inner, lineGap: 0 });
      this.style(FONT.regular, 8, PALETTE.muted).text(tile.label, left + 12, this.y + 12 + valueHeight + 4, { width: inner, lineGap: 1 });
    });
    this.y += height + after;
  }

  /** Label/value pairs in `columns` columns, each row under a hairline, values wrapped within their column. */
  grid(pairs: ReadonlyArray<{ label: string; value: string }>, columns = 3, after = 8): void {
    const gap = 16;
    const columnWidth = (CONTENT_WIDTH - gap * (columns - 1)) / columns;
    for (let start = 0; start < pairs.length; start += columns) {
      const row = pairs.slice(start, start + columns);
      const height =
        8 +
        Math.max(
          ...row.map(
            (pair) => this.measure(pair.label, FONT.regular, 7.5, columnWidth, 1) + 2 + this.measure(pair.value, FONT.bold, 9.5, columnWidth, 1),
          ),
        ) +
        8;
      this.ensure(height);
      this.doc.save().moveTo(MARGIN.left, this.y).lineTo(MARGIN.left + CONTENT_WIDTH, this.y).lineWidth(0.5).stroke(PALETTE.rule).restore();
      row.forEach((pair, index) => {
        const x = MARGIN.left + index * (columnWidth + gap);
        const labelHeight = this.measure(pair.label, FONT.regular, 7.5, columnWidth, 1);
        this.style(FONT.regular, 7.5, PALETTE.muted).text(pair.label, x, this.y + 8, { width: columnWidth, lineGap: 1 });
        this.style(FONT.bold, 9.5, PALETTE.ink).text(pair.value, x, this.y + 8 + labelHeight + 2, { width: columnWidth, lineGap: 1 });
      });
      this.y += height;
    }
    this.doc.save().moveTo(MARGIN.left, this.y).lineTo(MARGIN.left + CONTENT_WIDTH, this.y).lineWidth(0.5).stroke(PALETTE.rule).restore();
    this.y += after;
  }

  /**
   * A table: a header row under a primary rule, striped body rows under hairlines, an optional bold total row. A row
   * that does not fit starts a new page, where the header is drawn again.
   */
  table(columns: readonly Column[], rows: ReadonlyArray<ReadonlyArray<string | Cell>>, options: { total?: ReadonlyArray<string | Cell>; x?: number; width?: number; after?: number } = {}): void {
    const x0 = options.x ?? MARGIN.left;
    const tableWidth = options.width ?? CONTENT_WIDTH;
    const fixed = columns.reduce((sum, column) => sum + column.width, 0);
    const widths = columns.map((column) => (column.width === 0 ? Math.max(40, tableWidth - fixed) : column.width));
    const cells = (row: ReadonlyArray<string | Cell>): Cell[] => row.map((cell) => (typeof cell === 'string' ? { text: cell } : cell));
    const header = columns.map((column): Cell => ({ text: column.header, bold: true, colour: PALETTE.muted, size: 8 }));

    const textWidth = (cell: Cell, width: number) =>
      width - 2 * CELL_PADDING_X - (cell.swatch ? 14 : 0) - (cell.bar !== undefined ? BAR_WIDTH + 8 : 0);
    // A cell's text shrinks (to 6 pt at least) until its longest word fits the column, so no word breaks mid-way.
    const fit = (row: Cell[], size: number): Cell[] =>
      row.map((cell, index) => {
        const wanted = cell.size ?? size;
        const available = textWidth(cell, widths[index] ?? 40);
        const font = cell.bold ? FONT.condensedBold : FONT.condensed;
        const longest = Math.max(0, ...cell.text.split(/\s+/).map((word) => this.doc.font(font).fontSize(wanted).widthOfString(word)));
        return longest > available ? { ...cell, size: Math.max(6, Math.floor((10 * wanted * available) / longest) / 10) } : cell;
      });
    const rowHeight = (row: Cell[], size: number) =>
      2 * CELL_PADDING_Y +
      Math.max(
        ...row.map((cell, index) =>
          this.measure(cell.text, cell.bold ? FONT.condensedBold : FONT.condensed, cell.size ?? size, Math.max(10, textWidth(cell, widths[index] ?? 40)), 1),
        ),
      );

    const drawRow = (row: Cell[], size: number, kind: 'header' | 'body' | 'total', stripe: boolean) => {
      const height = rowHeight(row, size);
      const { doc } = this;
      if (stripe) doc.save().rect(x0, this.y, tableWidth, height).fill(PALETTE.stripe).restore();
      let x = x0;
      row.forEach((cell, index) => {
        const width = widths[index] ?? 40;
        const align = columns[index]?.align ?? 'left';
        let textX = x + CELL_PADDING_X;
        if (cell.swatch) {
          doc.save().roundedRect(textX, this.y + CELL_PADDING_Y + 1.5, 8, 8, 1.5).fill(cell.swatch).restore();
          textX += 14;
        }
        if (cell.bar !== undefined) {
          const barY = this.y + height / 2 - 3;
          doc.save().roundedRect(textX, barY, BAR_WIDTH, 6, 3).fill(PALETTE.track).restore();
          const fraction = Math.min(1, Math.max(0, cell.bar ?? 0));
          if (fraction > 0) doc.save().roundedRect(textX, barY, Math.max(6, BAR_WIDTH * fraction), 6, 3).fill(PALETTE.accent).restore();
          textX += BAR_WIDTH + 8;
        }
        this.style(cell.bold ? FONT.condensedBold : FONT.condensed, cell.size ?? size, cell.colour ?? PALETTE.ink).text(cell.text, textX, this.y + CELL_PADDING_Y, {
          width: Math.max(10, textWidth(cell, width)),
          align,
          lineGap: 1,
        });
        x += width;
      });
      this.y += height;
      const ruleColour = kind === 'header' ? PALETTE.primary : PALETTE.rule;
      const ruleWidth = kind === 'header' ? 1 : 0.5;
      doc.save().moveTo(x0, this.y).lineTo(x0 + tableWidth, this.y).lineWidth(ruleWidth).stroke(ruleColour).restore();
    };

    const fittedHeader = fit(header, 8);
    const headerHeight = rowHeight(fittedHeader, 8);
    const bodyRows = rows.map((row) => fit(cells(row), TABLE_FONT_SIZE));
    const firstHeight = bodyRows[0] ? rowHeight(bodyRows[0], TABLE_FONT_SIZE) : 0;
    this.ensure(headerHeight + firstHeight);
    drawRow(fittedHeader, 8, 'header', false);
    bodyRows.forEach((row, index) => {
      const height = rowHeight(row, TABLE_FONT_SIZE);
      if (this.y + height > CONTENT_BOTTOM) {
        this.newPage();
        drawRow(fittedHeader, 8, 'header', false);
      }
      drawRow(row, TABLE_FONT_SIZE, 'body', index % 2 === 1);
    });
    if (options.total) {
      const total = fit(
        cells(options.total).map((cell) => ({ ...cell, bold: true })),
        TABLE_FONT_SIZE,
      );
      this.ensure(rowHeight(total, TABLE_FONT_SIZE));
      this.doc.save().moveTo(x0, this.y).lineTo(x0 + tableWidth, this.y).lineWidth(1).stroke(PALETTE.ink).restore();
      drawRow(total, TABLE_FONT_SIZE, 'total', false);
    }
    this.y += options.after ?? 10;
  }

  /**
   * Draws the running header (from page 2: `left` and `right`) and footer (every page: `footer` and "page n of N") on
   * all pages. Call once, after the last page.
   */
  decoratePages(header: { left: string; right: string }, footer: string): void {
    const { doc } = this;
    const range = doc.bufferedPageRange();
    for (let index = range.start; index < range.start + range.count; index++) {
      doc.switchToPage(index);
      // Text below the bottom margin would make pdfkit add a page: lift the margin while drawing the footer.
      const savedBottom = doc.page.margins.bottom;
      doc.page.margins.bottom = 0;
      const pageNumber = index - range.start + 1;
      if (pageNumber > 1) {
        const y = 34;
        this.style(FONT.bold, 7.5, PALETTE.primary).text(header.left, MARGIN.left, y, { width: CONTENT_WIDTH / 2, lineBreak: false });
        this.style(FONT.regular, 7.5, PALETTE.muted).text(header.right, MARGIN.left + CONTENT_WIDTH / 2, y, {
          width: CONTENT_WIDTH / 2,
          align: 'right',
          height: 9, // one line; pdfkit ends a longer text with an ellipsis
          ellipsis: true,
        });
        doc.save().moveTo(MARGIN.left, y + 14).lineTo(MARGIN.left + CONTENT_WIDTH, y + 14).lineWidth(0.5).stroke(PALETTE.rule).restore();
      }
      const footerY = PAGE.height - 42;
      doc.save().moveTo(MARGIN.left, footerY - 8).lineTo(MARGIN.left + CONTENT_WIDTH, footerY - 8).lineWidth(0.5).stroke(PALETTE.rule).restore();
      // The cover carries the issue line itself.
      if (pageNumber > 1) this.style(FONT.regular, 7.5, PALETTE.muted).text(footer, MARGIN.left, footerY, {
        width: CONTENT_WIDTH * 0.75 - 12,
        height: 9,
        ellipsis: true,
      });
      this.style(FONT.regular, 7.5, PALETTE.muted).text(this.t.m.pageOf(pageNumber, range.count), MARGIN.left + CONTENT_WIDTH * 0.75, footerY, {
        width: CONTENT_WIDTH * 0.25,
        align: 'right',
        lineBreak: false,
      });
      doc.page.margins.bottom = savedBottom;
    }
  }

  /**
   * Streams the document into `output` while `draw` lays it out, then ends it and resolves once `output` has
   * finished. If drawing or writing fails, `output` is destroyed with the error (as `pipeline` would) and the promise
   * rejects.
   */
  async writeTo(output: Writable, draw: () => void): Promise<void> {
    const done = finished(output, { readable: false });
    this.doc.pipe(output);
    try {
      draw();
      this.doc.end();
    } catch (error) {
      this.doc.unpipe(output);
      output.destroy(error instanceof Error ? error : new Error(String(error)));
    }
    await done;
  }
}
