/**
 * The aggregates of resources other than a file's elements (a building, a portfolio, a catalogue item with its
 * lists): its entries pushed in order until one is parked or waits for a create, each by the operations the entity's
 * `push` names in `../db/entities.ts`.
 */
import { assertNever } from '../../shared/api/enums';
import { ENTITIES, isCreatedEntity, type EditedEntity } from '../db/entities';
import { aggregateEntries } from '../db/outbox';
import { pushCreate } from './push-create';
import { acknowledge, isStatus, park, refersToLocalRow, send, type AggregateOutcome, type EditEntry, type PushRun, type Step } from './push-run';
import { pushUpdate } from './push-update';

/** A resource other than an element: its rows are named by their key alone. */
type ResourceEntity = Exclude<EditedEntity, 'elements'>;

/** Pushes the first entry of an aggregate of a resource other than an element. */
async function pushResourceEntry(run: PushRun, entry: EditEntry & { entity: ResourceEntity }): Promise<Step> {
  const operations = ENTITIES[entry.entity].push;
  const params = operations.params(entry.key);
  switch (entry.op) {
    case 'create':
      if (isCreatedEntity(entry.entity)) return pushCreate(run, { ...entry, entity: entry.entity });
      return park(run, entry, `create:${entry.key}`, { kind: 'internal', message: `The API has no create of one ${entry.entity} list.` });
    case 'update':
      if (refersToLocalRow(entry.key) || refersToLocalRow(entry.fields)) return { kind: 'blocked' };
      return pushUpdate(run, entry, {
        get: { operationId: operations.get, params },
        replace: (body) => ({ operationId: operations.replace, params, body }),
        write: (where, call) => send(run, where, call, entry),
      });
    case 'delete': {
      const where = `${operations.remove ?? 'delete'}:${entry.key}`;
      if (operations.remove === null) return park(run, entry, where, { kind: 'internal', message: `The API cannot delete ${entry.entity}.` });
      if (refersToLocalRow(entry.key)) return { kind: 'blocked' };
      const removed = await send(run, where, { operationId: operations.remove, params }, entry);
      // Already gone is what the delete wanted.
      if (removed.ok || isStatus(removed.failure, 404)) return acknowledge(run, entry, undefined);
      return park(run, entry, where, removed.failure);
    }
    default:
      return assertNever(entry.op, 'outbox op');
  }
}

/** Pushes an aggregate's entries in order until it is empty, or an entry is parked or waits for another create. */
export async function pushAggregate(run: PushRun, aggregate: string): Promise<AggregateOutcome> {
  let name = aggregate;
  for (;;) {
    const [head] = await aggregateEntries(run.options.db, name);
    if (head === undefined) return 'done';
    if (head.state === 'parked') return 'waiting';
    if (head.entity === 'files' || head.entity === 'elements') {
      await park(run, head, `push:${head.key}`, { kind: 'internal', message: `An entry of ${head.entity} belongs to a file's batch.` });
      return 'waiting';
    }
    const step = await pushResourceEntry(run, head as EditEntry & { entity: ResourceEntity });
    if (step.kind !== 'acked') return step.kind === 'parked' ? 'waiting' : 'blocked';
    // A create's real id renames its aggregate.
    if (step.key !== head.key) name = name.replaceAll(head.key, step.key);
  }
}
