/**
 * A small in-memory server for the renderer tests that sync: it answers the Bridge's `api:request` the way the API
 * does for portfolios and buildings (list, get, replace), answers every other list empty, and can be told to refuse or
 * drop calls, or to hold one until the test releases it.
 */
import type { BuildingResponse, PortfolioResponse } from '../../../shared/api/schemas';
import type { ApiAnswer, ApiRequest, Connection } from '../../../shared/ipc';
import { deferred } from './harness';

/** A remote connection with a key, for tests. */
export function remoteConnection(id: string, name = id): Connection {
  return { id, name, baseUrl: `https://${id}.example.com`, apiVersion: 'v2.3', kind: 'remote', hasKey: true };
}

/** A successful answer. */
export function ok(value: unknown, status = 200): ApiAnswer {
  return { kind: 'ok', status, value, location: null };
}

/** A problem answer. */
export function problem(status: number, title: string, detail: string, errors: Array<{ path: string; message: string }> = []): ApiAnswer {
  return {
    kind: 'problem',
    status,
    problem: { type: 'about:blank', title, status, detail, instance: '/api/v2.3', errors, message: detail },
  };
}

/** No answer at all. */
export const NO_ANSWER: ApiAnswer = { kind: 'network', reason: 'unreachable', message: 'Connection refused.' };

/** The server's rows, the calls it got, and how the test steers it. */
export interface SyncServer {
  portfolios: Map<string, PortfolioResponse>;
  buildings: Map<string, BuildingResponse>;
  /** Operation ids of the calls, in order. */
  calls: string[];
  /** Answers an operation with this instead of its normal answer (until deleted). */
  overrides: Map<string, () => ApiAnswer>;
  /** Makes the next call of an operation wait; resolve the returned function to let it answer. */
  hold(operationId: string): () => void;
  handle(request: ApiRequest): Promise<ApiAnswer>;
}

/** Creates a server holding the given rows. */
export function syncServer(portfolios: PortfolioResponse[] = [], buildings: BuildingResponse[] = []): SyncServer {
  const server: SyncServer = {
    portfolios: new Map(portfolios.map((row) => [row.id, row])),
    buildings: new Map(buildings.map((row) => [row.id, row])),
    calls: [],
    overrides: new Map(),
    hold(operationId) {
      const gate = deferred<void>();
      holds.set(operationId, gate.promise);
      return () => gate.resolve();
    },
    async handle(request) {
      server.calls.push(request.operationId);
      const held = holds.get(request.operationId);
      if (held !== undefined) {
        holds.delete(request.operationId);
        await held;
      }
      const override = server.overrides.get(request.operationId);
      if (override !== undefined) return override();
      const id = request.params?.['id'];
      switch (request.operationId) {
        case 'listPortfolios':
          return ok([...server.portfolios.values()]);
        case 'listBuildings':
          return ok([...server.buildings.values()]);
        case 'getPortfolio': {
          const row = server.portfolios.get(String(id));
          return row === undefined ? problem(404, 'Not Found', 'No such portfolio.') : ok(row);
        }
        case 'replacePortfolio': {
          const row = { ...(request.body as PortfolioResponse), id: String(id) };
          server.portfolios.set(row.id, row);
          return ok(row);
        }
        default:
          return request.operationId.startsWith('list') ? ok([]) : problem(404, 'Not Found', `No ${request.operationId} here.`);
      }
    },
  };
  const holds = new Map<string, Promise<void>>();
  return server;
}
