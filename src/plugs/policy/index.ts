// Public entry of the approval policy: modes, rules, guards and secret masking, installed on a session.
export { installApprovalPolicy, type ApprovalPolicy } from "./install.js";
export { RuleError } from "./rules.js";
export { preloadShellParser } from "./shell-parse.js";
export { configuredKeys, secretMask } from "./secrets.js";
export { CLAUDE_CODE_TOOLS } from "./claude-code-rules.js";
export { sandboxPathRules, type SandboxPathOptions, type SandboxPathRules } from "./sandbox-paths.js";
