import type { ClassificationMethod, LocalizedText } from '../../shared/api';
import type { ServerContext } from '../context';
import { parseJsonColumn } from '../store/repositories/json';

/** The classification methods (system data, the same for every key); their ids are what `classificationType` takes. */
export async function listClassificationMethods(ctx: ServerContext): Promise<ClassificationMethod[]> {
  const rows = await ctx.db.selectFrom('classification_methods').selectAll().orderBy('id').execute();
  return rows.map((row) => ({
    name: parseJsonColumn<LocalizedText>(row.name, 'classification_methods.name'),
    classificationTypeId: row.classificationTypeId,
    classificationLevelTypeId: row.classificationLevelTypeId,
    id: row.id,
  }));
}
