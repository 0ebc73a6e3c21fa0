// One event through the hooks that match it: every command at once (the same command once), each with its own
// timeout, and what they said merged as Claude Code defines it. Exit 0: stdout is JSON with fields (`decision`,
// `reason`, `continue`, `stopReason`, `suppressOutput`, `systemMessage`, `hookSpecificOutput` with
// `permissionDecision`, `permissionDecisionReason`, `additionalContext`, `updatedInput`), or plain text (context
// for UserPromptSubmit and SessionStart). Exit 2: blocks, with stderr as the reason. Any other end is an error
// the user is told of, and the event goes on.
import { type ConfineSpawn, showControls, type ProcessGroupSet } from "../../core/index.js";
import type { HookEvent, SettingsHook } from "./hook-settings.js";
import { runHookCommand, type HookCommandResult } from "./run-hook-command.js";

export type PermissionDecision = "allow" | "deny" | "ask";

export interface EventOutcome {
	/** Why the event is blocked (exit 2's stderr, `decision: "block"`'s reason), from every hook that blocked. */
	blocked?: string;
	permission?: PermissionDecision;
	permissionReason?: string;
	/** The first hook's (in source order) that gave one. */
	updatedInput?: Record<string, unknown>;
	/** Text for the model: additionalContext, and plain stdout where the event takes it as context. */
	context: string[];
	/** `continue: false`: the run is to stop, and the user reads this. */
	stop?: string;
	/** Hooks that did not answer within their timeout. */
	timedOut: SettingsHook[];
	/** What the user is told (errors, systemMessage). */
	notices: { level: "info" | "warning"; text: string }[];
}

export interface EventRunOptions {
	cwd: string;
	env: Record<string, string>;
	signal?: AbortSignal;
	groups?: ProcessGroupSet;
	/** Plain stdout of exit 0 is context for the model (UserPromptSubmit, SessionStart). */
	stdoutIsContext?: boolean;
	/** The commands may outlive loom, and nothing is heard of them (SessionEnd); see runHookCommand. */
	outlive?: boolean;
	confine?: ConfineSpawn;
}

const PERMISSION_RANK: Record<PermissionDecision, number> = { allow: 1, ask: 2, deny: 3 };

/** A hook as the user reads it in a notice: its command, shortened, and its file. */
export function hookLabel(hook: SettingsHook): string {
	const command = hook.command.length > 80 ? `${hook.command.slice(0, 77)}…` : hook.command;
	return `${hook.event} hook \`${showControls(command)}\` (${hook.source.file})`;
}

/** Runs `hooks` (all of `event`) on `input` and merges what they said; never rejects. */
export async function runHookEvent(event: HookEvent, hooks: readonly SettingsHook[], input: Record<string, unknown>, options: EventRunOptions): Promise<EventOutcome> {
	const outcome: EventOutcome = { context: [], timedOut: [], notices: [] };
	const unique = hooks.filter((hook, index) => hooks.findIndex((other) => other.command === hook.command) === index);
	if (unique.length === 0) return outcome;
	const stdin = JSON.stringify({ ...input, hook_event_name: event });
	const results = await Promise.all(
		unique.map((hook) =>
			runHookCommand(hook.command, {
				cwd: options.cwd,
				input: stdin,
				env: options.env,
				timeoutMs: hook.timeoutS * 1000,
				signal: options.signal,
				groups: options.groups,
				outlive: options.outlive,
				confine: options.confine,
			}),
		),
	);
	if (options.outlive) return outcome;
	const blocks: string[] = [];
	unique.forEach((hook, index) => merge(outcome, blocks, hook, results[index]!, options));
	if (blocks.length > 0) outcome.blocked = blocks.join("\n");
	return outcome;
}

function merge(outcome: EventOutcome, blocks: string[], hook: SettingsHook, result: HookCommandResult, options: EventRunOptions): void {
	const label = hookLabel(hook);
	if (result.aborted) return;
	if (result.spawnError !== undefined) {
		outcome.notices.push({ level: "warning", text: `The ${label} could not start: ${result.spawnError}` });
		return;
	}
	if (result.timedOut) {
		outcome.timedOut.push(hook);
		outcome.notices.push({ level: "warning", text: `The ${label} did not finish within ${hook.timeoutS} s and was stopped.` });
		return;
	}
	if (result.exitCode === 2) {
		blocks.push(result.stderr.trim() || `Blocked by the ${label}.`);
		return;
	}
	if (result.exitCode !== 0) {
		const said = result.stderr.trim() ? `: ${result.stderr.trim().slice(0, 2000)}` : ".";
		outcome.notices.push({ level: "warning", text: `The ${label} failed (exit ${result.exitCode ?? "by a signal"})${said}` });
		return;
	}
	const json = jsonOutput(result.stdout);
	if (!json) {
		const text = result.stdout.trim();
		if (options.stdoutIsContext && text) outcome.context.push(text);
		return;
	}
	const specific = isObject(json.hookSpecificOutput) ? json.hookSpecificOutput : {};
	if (typeof json.systemMessage === "string" && json.systemMessage.trim()) outcome.notices.push({ level: "info", text: json.systemMessage });
	if (json.continue === false) outcome.stop ??= typeof json.stopReason === "string" && json.stopReason ? json.stopReason : `Stopped by the ${label}.`;
	if (json.decision === "block") blocks.push(typeof json.reason === "string" && json.reason ? json.reason : `Blocked by the ${label}.`);
	// Claude Code's older spelling of a PreToolUse decision: approve / block.
	const permission = (specific.permissionDecision ?? (json.decision === "approve" ? "allow" : undefined)) as unknown;
	if (permission === "allow" || permission === "deny" || permission === "ask") {
		if (!outcome.permission || PERMISSION_RANK[permission] > PERMISSION_RANK[outcome.permission]) {
			outcome.permission = permission;
			const reason = specific.permissionDecisionReason ?? json.reason;
			outcome.permissionReason = typeof reason === "string" && reason ? reason : undefined;
		}
	}
	if (isObject(specific.updatedInput) && outcome.updatedInput === undefined) outcome.updatedInput = specific.updatedInput;
	if (typeof specific.additionalContext === "string" && specific.additionalContext.trim()) outcome.context.push(specific.additionalContext);
}

/** The object a hook printed, if its stdout is one JSON object; undefined for plain text. */
function jsonOutput(stdout: string): Record<string, any> | undefined {
	const text = stdout.trim();
	if (!text.startsWith("{")) return undefined;
	try {
		const value = JSON.parse(text);
		return isObject(value) ? value : undefined;
	} catch {
		return undefined;
	}
}

function isObject(value: unknown): value is Record<string, any> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
