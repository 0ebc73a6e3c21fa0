// Public entry of the approval policy: modes, rules, guards and secret masking, installed on a session.
export { type ApprovalPolicy, type ApprovalPolicyOptions, installApprovalPolicy } from "./install.js";
export { type BlockCause, decide, type PolicyState, type Verdict } from "./decide.js";
export { type CallFacts, type FileFact, gatherFacts, type PolicyContext } from "./call-facts.js";
export { GUARD_NAMES, type GuardName } from "./guards.js";
export { parseRule, type Rule, RuleError } from "./rules.js";
export { configuredKeys, MASK, type SecretMask, secretMask } from "./secrets.js";
