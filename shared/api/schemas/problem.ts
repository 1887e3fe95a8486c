/** The error body of every non-2xx answer (decisions §4). */
import { Type, type Static } from 'typebox';
import { Int32 } from '../schema-kit';

/** One invalid field of a request. */
export const ProblemFieldError = Type.Object(
  {
    path: Type.String({ description: 'Where the invalid value is, e.g. `body/circular/recycledPercentageFeedstock`.' }),
    message: Type.String(),
  },
  { additionalProperties: false },
);
/** One invalid field of a request. */
export type ProblemFieldError = Static<typeof ProblemFieldError>;

/**
 * RFC 9457 problem details, sent as `application/problem+json`. `message` repeats `detail` in the shape the platform's
 * v1.1 used, so clients written for it keep working.
 */
export const Problem = Type.Object(
  {
    type: Type.String({ description: 'A URI reference naming the kind of problem; `about:blank` when the status says it all.' }),
    title: Type.String({ description: 'Short summary of the kind of problem.' }),
    status: Int32({ minimum: 400, maximum: 599 }),
    detail: Type.String({ description: 'What went wrong with this request.' }),
    instance: Type.String({ description: 'The path of the request.' }),
    errors: Type.Array(ProblemFieldError, { description: 'The invalid fields; empty unless the request failed validation.' }),
    message: Type.String({ description: 'The same text as `detail`.' }),
  },
  { additionalProperties: false },
);
/** RFC 9457 problem details. */
export type Problem = Static<typeof Problem>;
