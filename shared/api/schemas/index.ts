/** Every request and response schema of the API, each exported with its static type under the same name. */
export * from './accounts';
export * from './building-files';
export * from './buildings';
export * from './common';
export * from './elements';
export * from './import-report';
export * from './materials';
export * from './model-changes';
export * from './portfolios';
export * from './problem';
export * from './products';
export * from './system';
export * from './tokens';
export * from './validation';
