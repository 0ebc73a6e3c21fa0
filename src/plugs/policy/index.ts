// Public entry of the approval policy: modes, rules, guards and secret masking, installed on a session.
export { type ApprovalPolicy, installApprovalPolicy } from "./install.js";
export { RuleError } from "./rules.js";
export { configuredKeys, type SecretMask, secretMask } from "./secrets.js";
