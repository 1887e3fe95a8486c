/** 0/1 stored for a boolean: SQLite has no boolean type, and both databases hold the same (see ../dialect.ts). */
export type Flag = 0 | 1;
