/** How a channel is declared, and the small shapes many channels share. */
import { Type, type Static, type TSchema } from 'typebox';

/** An id of something the host keeps (a connection, a drop folder, a passport folder or entry). */
export const Id = Type.String({ minLength: 1, maxLength: 100 });
/** The value of a channel that answers nothing. */
export const Nothing = Type.Null();
/** The request of a channel that takes nothing. */
export const NoInput = Type.Object({}, { additionalProperties: false });

/** One request/response channel. */
export interface ChannelDefinition<Request extends TSchema = TSchema, Response extends TSchema = TSchema> {
  readonly request: Request;
  readonly response: Response;
  /**
   * Request fields that name a folder on the host's disk: the host refuses the call unless each one given is an
   * absolute path of an existing folder, before a handler sees it.
   */
  readonly folders: readonly string[];
}

/** Declares a channel; `folders` names the request fields the host checks as folders on its disk. */
export function channel<Request extends TSchema, Response extends TSchema>(
  request: Request,
  response: Response,
  folders: readonly (keyof Static<Request> & string)[] = [],
): ChannelDefinition<Request, Response> {
  return { request, response, folders };
}
