// `loom hooks`: the settings hooks in force here, with their files and whether a project's run; and
// `loom hooks test <event> --session <id>`: the events recorded in a session replayed through the hooks, saying
// what each would have decided. Tools are not run; the hooks are (they are what is tested).
import { relative } from "node:path";
import { loadSessionFile, projectTrust, sessionChain, type AgentMessage } from "../../core/index.js";
import { claudeCall } from "./claude-tool-input.js";
import { runHookEvent, type EventOutcome } from "./hook-event.js";
import { HOOK_EVENTS, type HookEvent, hookMatches, readSettingsHooks, type SettingsHook } from "./hook-settings.js";
import { hooksAllowed, hooksFingerprint } from "./hook-trust.js";

export interface ReportPlace {
	cwd: string;
	home: string;
	claudeHome?: string;
}

/** Lines saying each hook, its event and matcher, its file, and for a project's whether it runs. */
export function listHooks(place: ReportPlace): string[] {
	const { hooks, warnings } = readSettingsHooks(place);
	if (hooks.length === 0) return ["No hooks are configured (settings.json's \"hooks\", .claude/settings.json, .claude/settings.local.json, ~/.claude/settings.json).", ...warnings];
	const project = hooks.filter((hook) => hook.source.scope === "project");
	const projectStatus = project.length === 0 ? "" : projectHooksStatus(place, project);
	const lines: string[] = [];
	for (const event of HOOK_EVENTS) {
		const of = hooks.filter((hook) => hook.event === event);
		if (of.length === 0) continue;
		lines.push(`${event}:`);
		for (const hook of of) {
			const status = hook.source.scope === "project" ? ` [${projectStatus}]` : "";
			lines.push(`  ${hook.matcher ? `${hook.matcher}: ` : ""}${hook.command}  (${hook.timeoutS} s; ${shown(place.cwd, hook.source.file)})${status}`);
		}
	}
	return [...lines, ...warnings];
}

function projectHooksStatus(place: ReportPlace, project: readonly SettingsHook[]): string {
	const trusted = projectTrust(place.home, place.cwd);
	if (trusted === false) return "does not run: the project is not trusted";
	if (trusted === undefined) return "waits for the project to be trusted";
	return hooksAllowed(place.home, place.cwd, hooksFingerprint(project)) ? "runs" : "changed since allowed: loom asks before it runs";
}

function shown(cwd: string, file: string): string {
	const rel = relative(cwd, file);
	return rel.startsWith("..") ? file : rel;
}

/**
 * Replays the session file's events of `event` (its current branch) through every hook configured (project
 * hooks included: the user asked for them by name) and says what each would have decided.
 */
export async function replayHooks(place: ReportPlace, event: string, sessionFile: string): Promise<string[]> {
	if (!(HOOK_EVENTS as readonly string[]).includes(event)) throw new Error(`${event} is not a hook event: use one of ${HOOK_EVENTS.join(", ")}.`);
	const { hooks } = readSettingsHooks(place);
	const loaded = await loadSessionFile(sessionFile);
	const messages = sessionChain(loaded.entries).entries.flatMap((entry) => (entry.type === "message" ? [entry.message as AgentMessage] : []));
	const base = { session_id: loaded.header.id, transcript_path: sessionFile, cwd: place.cwd };
	const env = { CLAUDE_PROJECT_DIR: place.cwd, LOOM_PROJECT_DIR: place.cwd };
	const lines: string[] = [];
	const replay = async (what: string, names: readonly string[] | undefined, input: Record<string, unknown>) => {
		const matching = hooks.filter((hook) => hook.event === event && (names === undefined || hookMatches(hook, names)));
		if (matching.length === 0) return lines.push(`${what}: no hook matches`);
		const outcome = await runHookEvent(event as HookEvent, matching, { ...base, ...input }, { cwd: place.cwd, env, stdoutIsContext: event === "UserPromptSubmit" || event === "SessionStart" });
		lines.push(`${what}: ${verdict(outcome)}`);
	};
	const calls = new Map<string, { name: string; args: unknown }>();
	let prompts = 0;
	for (const message of messages) {
		if (message.role === "user" && event === "UserPromptSubmit") {
			const text = typeof message.content === "string" ? message.content : message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
			await replay(`prompt ${++prompts} ${JSON.stringify(text.slice(0, 60))}`, undefined, { prompt: text });
		} else if (message.role === "assistant") {
			for (const part of message.content) {
				if (part.type !== "toolCall") continue;
				calls.set(part.id, { name: part.name, args: part.arguments });
				if (event !== "PreToolUse") continue;
				const call = claudeCall(part.name, part.arguments, place.cwd);
				await replay(`${call.toolName} ${JSON.stringify(call.toolInput).slice(0, 80)}`, call.names, { tool_name: call.toolName, tool_input: call.toolInput });
			}
		} else if (message.role === "toolResult" && event === "PostToolUse") {
			const made = calls.get(message.toolCallId);
			const call = claudeCall(message.toolName, made?.args ?? {}, place.cwd);
			const output = message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
			await replay(`${call.toolName} ${JSON.stringify(call.toolInput).slice(0, 80)}`, call.names, {
				tool_name: call.toolName,
				tool_input: call.toolInput,
				tool_response: { success: !message.isError, output },
			});
		}
	}
	if (event === "Stop") await replay("end of the run", undefined, { stop_hook_active: false });
	if (event === "SessionStart") await replay("start", ["startup"], { source: "startup" });
	if (lines.length === 0) lines.push(`The session has no ${event} events.`);
	return lines;
}

/** What an event's outcome would have meant, in a few words. */
function verdict(outcome: EventOutcome): string {
	const parts: string[] = [];
	if (outcome.stop !== undefined) parts.push(`stop the run (${outcome.stop})`);
	if (outcome.blocked !== undefined) parts.push(`block: ${outcome.blocked}`);
	if (outcome.timedOut.length > 0) parts.push("timed out (a PreToolUse call would not run)");
	if (outcome.permission) parts.push(`${outcome.permission}${outcome.permissionReason ? `: ${outcome.permissionReason}` : ""}`);
	if (outcome.updatedInput) parts.push(`input changed to ${JSON.stringify(outcome.updatedInput)}`);
	for (const text of outcome.context) parts.push(`context: ${text}`);
	for (const notice of outcome.notices) parts.push(notice.text);
	return parts.length > 0 ? parts.join("; ") : "no objection";
}
