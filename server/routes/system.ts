import type { OperationHandlers } from './operation';
import { listClassificationMethods } from '../services/classification-methods';

/** System data: not bound to any entity, readable by every key. */
export const systemHandlers: Pick<OperationHandlers, 'listClassificationMethods'> = {
  listClassificationMethods: async ({ ctx }) => ({ status: 200, value: await listClassificationMethods(ctx) }),
};
