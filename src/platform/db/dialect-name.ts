/** Which database a handle speaks; its own file so migrations can name it without importing the database module they are run by. */
export type Dialect = 'sqlite' | 'postgres';
