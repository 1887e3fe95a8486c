/** How busy each connection's queued client is. */
import { Type, type Static } from 'typebox';
import { Id } from './channel';

/** How busy a connection's queued client is, for the tray and the status bar. */
export const HttpActivity = Type.Object(
  { connectionId: Id, queued: Type.Integer({ minimum: 0 }), running: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false },
);
/** How busy a connection's queued client is. */
export type HttpActivity = Static<typeof HttpActivity>;

/** The `http:` events. */
export const httpEvents = {
  'http:activity': HttpActivity,
} as const;
