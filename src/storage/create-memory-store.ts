export { createMemorySqlStore as createMemoryStore } from './sql-store/open-sql-store.js';
