// Door of the settings hooks: shell commands on tool, prompt, stop and session events, in Claude Code's schema.
export { installHooks, type HooksOptions, type InstalledHooks } from "./install-hooks.js";
export { HOOK_EVENTS, readSettingsHooks, type HookEvent, type SettingsHook } from "./hook-settings.js";
export { runHookCommand, type HookCommandOptions, type HookCommandResult } from "./run-hook-command.js";
export { runHookEvent, hookLabel, type EventOutcome } from "./hook-event.js";
export { claudeCall } from "./claude-tool-input.js";
export { listHooks, replayHooks } from "./hooks-report.js";
