/** The HTTP contract of the Building Circularity Data API: enums, schemas, routes, OpenAPI document and typed client. */
export * from './enums';
export * from './schemas';
export * from './routes';
export * from './client';
export { buildOpenApiDocument } from './openapi';
