/**
 * sources/: reading GitHub and other data, page by page, for the runner — one file per source kind
 * (repository over REST and GraphQL, issues, pulls, releases, rest, http, files) and what they share:
 * repository selection (`owner/*`), REST list paging, conditional requests (the ETag book), the
 * rate-limit budget and the confinement of every URL the token goes to (api-url.ts). Depends on spec/
 * only; run/ reads what is exported here.
 */
export { apiBaseOf } from './api-url.js';
export { budgetedClient, RateBudget, type RateResource } from './budget.js';
export {
  ConditionalBook,
  type ConditionalEntry,
  type StoredConditional,
  tokenIdentity,
  trustedConditional,
} from './conditional.js';
export { type FetchOptions, fetchSource, supportsIncremental } from './fetch-source.js';
export { parseCsv } from './formats.js';
export { paginate } from './paginate.js';
export type { ReadContext } from './read-context.js';
export { readSource } from './read-source.js';
export { repositoryVars } from './repository-name.js';
export { parseLinkHeader, SOURCE_OPERATION, sourceError } from './source-error.js';
export type { SourceClient, SourceItem, SourcePage } from './types.js';
