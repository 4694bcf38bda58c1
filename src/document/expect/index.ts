/**
 * Data tests on a would-be commit (issue 38, `expect:`; docs/expectations.md): parse them, evaluate them
 * on the tip a write builds on, and report violations without document values.
 */
export { ExpectCollector } from './collect.js';
export { allowed, countViolations, type WriteCounts, writeCounts } from './counts.js';
export { evaluateExpectations, expectHook } from './evaluate.js';
export { type ExpectOp, expectOp, fieldsOf, keepOf } from './fields.js';
export { MAX_ACCEPTED_VALUES, MAX_EXPECT_FIELDS, parseExpectations } from './parse.js';
export { type SectionTestResult, testSection, withoutRun } from './section-test.js';
export { Tip } from './tip.js';
export type {
  AcceptedValue,
  CheckContext,
  CheckDocument,
  CheckRunner,
  Expectations,
  ExpectViolation,
  TypeExpectations,
} from './types.js';
export { checkExpectations, validateExpect } from './validate.js';
export { jsonType, valueViolations } from './values.js';
export { expectingWrite } from './write.js';
