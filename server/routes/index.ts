import type { OperationHandlers } from './operation';
import { accountHandlers } from './accounts';
import { buildingHandlers } from './buildings';
import { buildingFileHandlers } from './building-files';
import { elementHandlers } from './elements';
import { materialHandlers } from './materials';
import { productHandlers } from './products';
import { portfolioHandlers } from './portfolios';
import { portfolioFileHandlers } from './portfolio-files';
import { systemHandlers } from './system';
import { extensionHandlers } from './extensions';

/** Every operation's handler; the type makes a missing one a compile error. */
export const operationHandlers: OperationHandlers = {
  ...accountHandlers,
  ...buildingHandlers,
  ...buildingFileHandlers,
  ...elementHandlers,
  ...materialHandlers,
  ...productHandlers,
  ...portfolioHandlers,
  ...portfolioFileHandlers,
  ...systemHandlers,
  ...extensionHandlers,
};
