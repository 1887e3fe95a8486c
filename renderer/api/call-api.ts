/**
 * The renderer's API client: `callApi(port, operationId, input)`, typed by the v2.3 route table (the input's params,
 * query and body, and the answer's value), folding every way a call can fail into an `ApiFailure`.
 */
import { assertNever } from '../../shared/api/enums';
import type { CallArgs, CallInput, CallOk } from '../../shared/api/client';
import type { OperationId, Routes } from '../../shared/api/routes';
import type { ApiAnswer, IpcResult } from '../../shared/ipc';
import { failed, hostFailed, type ApiOutcome } from './outcome';
import { ApiPortError, type ApiCall, type ApiPort } from './port';

/** The value of a successful answer of an operation. */
export type AnswerValue<Id extends OperationId> = CallOk<Routes[Id]>['value'];

/** The operations whose answer is a list. */
export type ListOperationId = { [Id in OperationId]: AnswerValue<Id> extends readonly unknown[] ? Id : never }[OperationId];

/** The outcome of an answer the host passed on. */
export function outcomeOfAnswer(answer: ApiAnswer): ApiOutcome<unknown> {
  switch (answer.kind) {
    case 'ok':
      return { ok: true, status: answer.status, value: answer.value, location: answer.location };
    case 'problem':
      return failed({ kind: 'problem', status: answer.status, problem: answer.problem });
    case 'network':
      return failed({ kind: 'network', reason: answer.reason, message: answer.message });
    default:
      return assertNever(answer, 'API answer');
  }
}

/** The outcome of a Bridge channel that answers an `ApiAnswer` (`api:upload-image`). */
export function apiOutcomeOf(result: IpcResult<ApiAnswer>): ApiOutcome<unknown> {
  return result.ok ? outcomeOfAnswer(result.value) : hostFailed(result.error);
}

/** The call as the port carries it: the route's typed input in the Bridge's JSON shape, without absent parts. */
function portCall(operationId: OperationId, input: CallInput<Routes[OperationId]> | undefined): ApiCall {
  const call: ApiCall = { operationId };
  if (input?.params !== undefined) call.params = input.params as ApiCall['params'];
  if (input?.query !== undefined) call.query = input.query as ApiCall['query'];
  if (input?.headers !== undefined) call.headers = input.headers as ApiCall['headers'];
  if (input?.body !== undefined) call.body = input.body;
  return call;
}

/**
 * Runs a call and folds every failure into an `ApiFailure`. The value is taken as the contract's type: the callers
 * check what they rely on. Errors other than `ApiPortError` are not failures of the call but of the program (or the
 * page going away), and are thrown on.
 */
export async function callApi<Id extends OperationId>(
  port: ApiPort,
  operationId: Id,
  ...[input]: CallArgs<Routes[Id]>
): Promise<ApiOutcome<AnswerValue<Id>>> {
  let answer: ApiAnswer;
  try {
    answer = await port(portCall(operationId, input as CallInput<Routes[OperationId]> | undefined));
  } catch (error) {
    if (error instanceof ApiPortError) return failed({ kind: 'host', code: error.code, message: error.message });
    throw error;
  }
  return outcomeOfAnswer(answer) as ApiOutcome<AnswerValue<Id>>;
}

/** Runs a call whose answer must be a list; any other answer is an `invalid-answer` failure. */
export async function callApiList<Id extends ListOperationId>(
  port: ApiPort,
  operationId: Id,
  ...input: CallArgs<Routes[Id]>
): Promise<ApiOutcome<AnswerValue<Id>>> {
  const outcome = await callApi(port, operationId, ...input);
  if (outcome.ok && !Array.isArray(outcome.value)) return failed({ kind: 'invalid-answer', message: `The answer of ${operationId} is not a list.` });
  return outcome;
}

/**
 * A call built as a value before it is sent, by code that picks its operation from a table (the sync engine's): the
 * operation is one of the route table's, its input is checked by the host and the server rather than by the types.
 */
export type OperationCall = Omit<ApiCall, 'operationId'> & { operationId: OperationId };

/** Runs an `OperationCall` through `callApi`. */
export function callOperation(port: ApiPort, call: OperationCall): Promise<ApiOutcome<unknown>> {
  return callApi(port, call.operationId, ...([call] as CallArgs<Routes[OperationId]>));
}
