/** What both passports' cover pages share: the coloured band, the footer, the score as text, and a sum. */
import type { PassportText } from './i18n';
import type { PassportImage } from './passport-data';
import { CONTENT_WIDTH, FONT, MARGIN, PAGE, type PassportLayout } from './pdf-layout';
import { PALETTE } from './theme';

export function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/** The coloured band at the top of a cover page, sized to the title it holds; leaves the cursor below it. */
export function coverBand(layout: PassportLayout, kind: string, title: string, subtitle: string | null, logo?: PassportImage | null): void {
  const { doc } = layout;
  const titleWidth = CONTENT_WIDTH - (logo ? 130 : 0);
  const titleHeight = layout.measure(title, FONT.bold, 26, titleWidth, 2);
  const subtitleHeight = subtitle ? layout.measure(subtitle, FONT.regular, 11.5, titleWidth, 2) : 0;
  const bandHeight = Math.max(200, 96 + titleHeight + (subtitle ? 8 + subtitleHeight : 0) + 40);
  doc.save().rect(0, 0, PAGE.width, bandHeight).fill(PALETTE.primary).restore();
  doc.save().rect(0, bandHeight, PAGE.width, 4).fill(PALETTE.accent).restore();
  layout.style(FONT.bold, 9, '#BFE3D8').text('CIRCULARITY DESK', MARGIN.left, 48, { characterSpacing: 2.5, lineBreak: false });
  layout.style(FONT.regular, 13, '#FFFFFF').text(kind, MARGIN.left, 68, { width: titleWidth, lineBreak: false });
  layout.style(FONT.bold, 26, '#FFFFFF').text(title, MARGIN.left, 96, { width: titleWidth, lineGap: 2 });
  if (subtitle) {
    layout.style(FONT.regular, 11.5, '#D8EEE8').text(subtitle, MARGIN.left, 96 + titleHeight + 8, { width: titleWidth, lineGap: 2 });
  }
  if (logo) {
    // A white card on the band keeps any logo legible, whatever its own colours.
    const card = { x: PAGE.width - MARGIN.right - 110, y: 48, width: 110, height: 70 };
    doc.save().roundedRect(card.x, card.y, card.width, card.height, 6).fill('#FFFFFF').restore();
    try {
      doc.image(logo.bytes, card.x + 8, card.y + 8, { fit: [card.width - 16, card.height - 16], align: 'center', valign: 'center' });
    } catch {
      // An unreadable logo is left out rather than failing the passport.
    }
  }
  layout.y = bandHeight + 30;
}

/** The issue line and the disclaimer at the foot of a cover page. */
export function coverFooter(layout: PassportLayout, generatedAt: Date): void {
  const { t } = layout;
  const disclaimerHeight = layout.measure(t.m.disclaimer, FONT.regular, 8, CONTENT_WIDTH, 2);
  const top = PAGE.height - MARGIN.bottom - disclaimerHeight - 30;
  if (layout.y > top) layout.newPage();
  layout.y = Math.max(layout.y, top);
  layout.doc.save().moveTo(MARGIN.left, layout.y).lineTo(MARGIN.left + CONTENT_WIDTH, layout.y).lineWidth(0.5).stroke(PALETTE.rule).restore();
  layout.y += 8;
  layout.text(t.m.generatedBy(t.f.date(generatedAt)), { font: FONT.bold, size: 9, colour: PALETTE.ink, after: 4 });
  layout.text(t.m.disclaimer, { size: 8, colour: PALETTE.muted, lineGap: 2 });
}

/** The corrected CI score, or "n/a" in the language. */
export function scoreText(score: number | null, t: PassportText): string {
  return score === null ? t.m.notAvailable : t.f.percent(score);
}

