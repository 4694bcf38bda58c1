/**
 * GitHub's GraphQL limits, computed before a query runs
 * (https://docs.github.com/graphql/overview/rate-limits-and-node-limits-for-the-graphql-api):
 * - every connection needs `first` or `last`, 1–100 (MISSING_PAGINATION_BOUNDARIES, EXCESSIVE_PAGINATION);
 * - nodes: the sum over connections of `first` × the nodes of their parents, at most 500,000 (MAX_NODE_LIMIT_EXCEEDED);
 * - cost: the requests needed to fill every connection (each parent node's connection is one request),
 *   divided by 100 and rounded, at least 1 point.
 */
import {
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  getNamedType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';

export const NODE_LIMIT = 500_000;

export interface LimitError {
  type: 'MISSING_PAGINATION_BOUNDARIES' | 'EXCESSIVE_PAGINATION' | 'MAX_NODE_LIMIT_EXCEEDED';
  message: string;
}

export interface QueryCost {
  cost: number;
  nodeCount: number;
  errors: LimitError[];
}

function intValue(node: ValueNode | undefined, variables: Record<string, unknown>): number | undefined {
  if (!node) return undefined;
  if (node.kind === Kind.INT) return Number(node.value);
  if (node.kind === Kind.VARIABLE) {
    const v = variables[node.name.value];
    return typeof v === 'number' ? v : undefined;
  }
  return undefined;
}

/** Cost, node count and limit violations of an operation. */
export function queryCost(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
): QueryCost {
  let requests = 0;
  let nodes = 0;
  const errors: LimitError[] = [];
  const walk = (set: SelectionSetNode, parent: GraphQLCompositeType, multiplier: number, seen: Set<string>) => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FRAGMENT_SPREAD) {
        const frag = fragments[sel.name.value];
        if (!frag || seen.has(sel.name.value)) continue;
        const type = schema.getType(frag.typeCondition.name.value);
        if (type && isCompositeType(type))
          walk(frag.selectionSet, type, multiplier, new Set([...seen, sel.name.value]));
        continue;
      }
      if (sel.kind === Kind.INLINE_FRAGMENT) {
        const type = sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : parent;
        if (type && isCompositeType(type)) walk(sel.selectionSet, type, multiplier, seen);
        continue;
      }
      if (sel.name.value.startsWith('__') || !(isObjectType(parent) || isInterfaceType(parent))) continue;
      const def = parent.getFields()[sel.name.value];
      if (!def) continue;
      const named = getNamedType(def.type);
      let child = multiplier;
      if (named.name.endsWith('Connection')) {
        const arg = (n: string) => sel.arguments?.find((a) => a.name.value === n)?.value;
        const first = intValue(arg('first'), variables);
        const last = intValue(arg('last'), variables);
        const n = first ?? last;
        if (n === undefined) {
          errors.push({
            type: 'MISSING_PAGINATION_BOUNDARIES',
            message: `You must provide a \`first\` or \`last\` value to properly paginate the \`${sel.name.value}\` connection.`,
          });
          continue;
        }
        if (n < 0 || n > 100) {
          errors.push({
            type: 'EXCESSIVE_PAGINATION',
            message: `Requesting ${n} records on the \`${sel.name.value}\` connection exceeds the \`${first !== undefined ? 'first' : 'last'}\` limit of 100 records.`,
          });
          continue;
        }
        requests += multiplier;
        nodes += multiplier * n;
        child = multiplier * n;
        if (nodes > NODE_LIMIT && !errors.some((e) => e.type === 'MAX_NODE_LIMIT_EXCEEDED')) {
          errors.push({
            type: 'MAX_NODE_LIMIT_EXCEEDED',
            message: `By the time this query traverses to the ${sel.name.value} connection, it is requesting up to ${nodes.toLocaleString('en-US')} possible nodes which exceeds the maximum limit of ${NODE_LIMIT.toLocaleString('en-US')}.`,
          });
        }
      }
      if (sel.selectionSet && isCompositeType(named)) walk(sel.selectionSet, named, child, seen);
    }
  };
  const root = schema.getQueryType();
  if (root) walk(operation.selectionSet, root, 1, new Set());
  return { cost: Math.max(1, Math.round(requests / 100)), nodeCount: nodes, errors };
}
