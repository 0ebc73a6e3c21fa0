// Public entry of the sandbox: the policy, its bubblewrap and Seatbelt forms, the one launcher every process
// the model causes goes through (`Sandbox.confine`), and its installation on a session.
export { bwrapArgs, type PathProbe } from "./bwrap-args.js";
export { installSandbox, type InstallSandboxOptions } from "./install-sandbox.js";
export { findLauncher, preloadLauncher, type Launcher } from "./launcher-probe.js";
export { hostAllowed, startNetworkProxy, type NetworkProxy } from "./network-proxy.js";
export { Sandbox, resetFallbackNotice, type SandboxOptions } from "./sandbox.js";
export { DEFAULT_HIDDEN, PROTECTED_NAMES, sandboxPolicy, type SandboxPolicy, type SandboxPolicyInputs } from "./sandbox-policy.js";
export { blockNote, refusedWrites, sandboxBlocks, type SandboxBlock } from "./sandbox-violations.js";
export { seatbeltProfile } from "./seatbelt-profile.js";
