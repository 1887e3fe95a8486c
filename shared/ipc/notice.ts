/** Notices: what the user should hear about while doing something else. */
import { Type, type Static } from 'typebox';

/** How a notice reads: work that ended well, news, or a failure the user should look at. */
export const NoticeKind = Type.Union([Type.Literal('success'), Type.Literal('info'), Type.Literal('error')]);
/** How a notice reads. */
export type NoticeKind = Static<typeof NoticeKind>;

/** Something the user should hear about while doing something else: a drop folder file mapped or failed, a passport saved. */
export const Notice = Type.Object(
  { kind: NoticeKind, title: Type.String(), message: Type.String() },
  { additionalProperties: false },
);
/** Something the user should hear about. */
export type Notice = Static<typeof Notice>;

/** The `notice` events. */
export const noticeEvents = {
  /** Something to show the user in the app (Electron also shows it as a native notification). */
  notice: Notice,
} as const;
