/**
 * Where a store sends GraphQL, apart from the GraphQL reader (graphql.ts): every store resolves the URL
 * when it is built, while the reader loads only when a query is sent — in a browser bundle, on first use.
 */

/**
 * The GraphQL endpoint for a REST API base (`…/api/v3` on GitHub Enterprise Server → `…/api/graphql`).
 *
 * @example
 * graphqlUrl('https://api.github.com'); // 'https://api.github.com/graphql'
 * graphqlUrl('https://ghe.example/api/v3'); // 'https://ghe.example/api/graphql'
 */
export function graphqlUrl(apiBase: string): string {
  return apiBase.endsWith('/api/v3') ? `${apiBase.slice(0, -3)}graphql` : `${apiBase}/graphql`;
}
