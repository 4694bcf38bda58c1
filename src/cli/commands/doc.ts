/** `docdb doc get | put | list | delete | history | changes | export | query | index | search | search-index | schema | test`: documents in a section, through any store. */
import type { CliGroup } from '../command.js';

export const group: CliGroup = {
  name: 'doc',
  summary:
    'read and write documents: get, put, list, delete, history, changes, export, query, index, search, search-index, schema, test',
  subcommands: {
    get: async () => (await import('./doc-read.js')).get,
    list: async () => (await import('./doc-read.js')).list,
    history: async () => (await import('./doc-read.js')).history,
    changes: async () => (await import('./doc-read.js')).changes,
    export: async () => (await import('./doc-export.js')).exportCommand,
    query: async () => (await import('./doc-query.js')).query,
    index: async () => (await import('./doc-index.js')).index,
    search: async () => (await import('./doc-search.js')).search,
    'search-index': async () => (await import('./doc-search-index.js')).searchIndex,
    schema: async () => (await import('./doc-schema.js')).schema,
    test: async () => (await import('./doc-test.js')).test,
    put: async () => (await import('./doc-write.js')).put,
    delete: async () => (await import('./doc-write.js')).del,
  },
};
