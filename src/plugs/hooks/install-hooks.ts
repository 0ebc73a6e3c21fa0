// Puts the settings hooks on a session: PreToolUse as a link of the before-chain (policy stage, ahead of the
// approval policy's link, so that a hook's "allow" can spare the user the question and its updatedInput is what
// the policy judges), PostToolUse as a link of the after-chain (extension stage), UserPromptSubmit and Stop as
// the run's prompt and stop links, SessionStart, PreCompact and Notification from the session's events, and
// SessionEnd when the session is disposed. Project hooks join only in a trusted project, and only as the user
// last allowed them (a changed one is asked about again).
import { relative } from "node:path";
import {
	type AgentSession,
	type AfterToolCallResult,
	type BeforeLink,
	type AfterLink,
	type ConfineSpawn,
	ProcessGroupSet,
	type ProjectTrustGate,
	type SessionEvent,
	type Settings,
	projectTrust,
	raceAbort,
} from "../../core/index.js";
import { claudeCall, loomArgs } from "./claude-tool-input.js";
import { hookLabel, runHookEvent, type EventOutcome } from "./hook-event.js";
import { type HookEvent, hookMatches, readSettingsHooks, type SettingsHook } from "./hook-settings.js";
import { allowHooks, hooksAllowed, hooksFingerprint } from "./hook-trust.js";

export interface HooksOptions {
	cwd: string;
	/** loom's home: the user's settings.json and where allowed project hooks are remembered. */
	home: string;
	/** The user's loom settings as read. */
	settings: Settings;
	trust: ProjectTrustGate;
	/** --trust / trustProjects: the project's hooks run without asking, changed or not. */
	optIn?: boolean;
	/** Default ~/.claude. */
	claudeHome?: string;
	/** The sandbox's launcher: hook commands run confined where it is on. */
	confine?: ConfineSpawn;
}

export interface InstalledHooks {
	/** The hooks in force now (project hooks join once allowed). */
	readonly active: readonly SettingsHook[];
	/** Every hook read, in force or not. */
	readonly all: readonly SettingsHook[];
}

export function installHooks(session: AgentSession, options: HooksOptions): InstalledHooks {
	const { cwd, home } = options;
	const { hooks: all, warnings } = readSettingsHooks({ home, cwd, settings: options.settings, claudeHome: options.claudeHome });
	for (const warning of warnings) session.addLoadWarning(warning);
	const state = { active: all.filter((hook) => hook.source.scope === "user") };
	const installed: InstalledHooks = {
		get active() {
			return state.active;
		},
		all,
	};
	if (all.length === 0) return installed;

	const groups = new ProcessGroupSet();
	session.onDispose(() => groups.killAll());
	const env = { CLAUDE_PROJECT_DIR: cwd, LOOM_PROJECT_DIR: cwd };
	const matching = (event: HookEvent, names?: readonly string[]) =>
		state.active.filter((hook) => hook.event === event && (names === undefined || hookMatches(hook, names)));
	const base = () => ({ session_id: session.sessionId, transcript_path: session.sessionFile ?? "", cwd });
	const tell = (outcome: EventOutcome) => {
		for (const notice of outcome.notices) session.ui.notify(notice.level, notice.text);
	};
	const run = async (event: HookEvent, hooks: readonly SettingsHook[], input: Record<string, unknown>, signal?: AbortSignal, stdoutIsContext = false) => {
		const outcome = await runHookEvent(event, hooks, { ...base(), ...input }, { cwd, env, signal, groups, stdoutIsContext, confine: options.confine });
		tell(outcome);
		return outcome;
	};

	const before: BeforeLink = async ({ toolCall, args }, signal) => {
		const call = claudeCall(toolCall.name, args, cwd);
		const hooks = matching("PreToolUse", call.names);
		if (hooks.length === 0) return undefined;
		const outcome = await run("PreToolUse", hooks, { tool_name: call.toolName, tool_input: call.toolInput }, signal);
		if (outcome.stop !== undefined) return { block: true, reason: outcome.stop, terminate: true };
		if (outcome.blocked !== undefined) return { block: true, reason: outcome.blocked };
		// A guard that did not answer is not taken as a yes: the call is not run.
		if (outcome.timedOut.length > 0) {
			const [first] = outcome.timedOut;
			return { block: true, reason: `Not run: the ${hookLabel(first!)} did not answer within ${first!.timeoutS} s, so the call was not checked. Try again, or tell the user.` };
		}
		if (outcome.permission === "deny") return { block: true, reason: outcome.permissionReason ?? `Denied by a PreToolUse hook.` };
		if (outcome.permission) session.hooks.hintApproval(toolCall.id, outcome.permission);
		if (outcome.updatedInput) return { args: loomArgs(call, outcome.updatedInput, args) };
		return undefined;
	};

	const after: AfterLink = async ({ toolCall, args, result, isError }, signal) => {
		const call = claudeCall(toolCall.name, args, cwd);
		const hooks = matching("PostToolUse", call.names);
		if (hooks.length === 0) return undefined;
		const output = result.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
		const filePath = call.toolInput.file_path;
		const response = { success: !isError, output, ...(typeof filePath === "string" ? { filePath } : {}), ...(call.toolName === "Bash" ? { stdout: output, stderr: "" } : {}) };
		const outcome = await run("PostToolUse", hooks, { tool_name: call.toolName, tool_input: call.toolInput, tool_response: response }, signal);
		const feedback = [...(outcome.blocked !== undefined ? [outcome.blocked] : []), ...outcome.context];
		if (feedback.length === 0 && outcome.stop === undefined) return undefined;
		const text = ["PostToolUse hook feedback:", ...feedback, ...(outcome.stop !== undefined ? [outcome.stop] : [])].join("\n");
		const changed: AfterToolCallResult = { content: [...result.content, { type: "text", text }] };
		if (outcome.stop !== undefined) changed.terminate = true;
		return changed;
	};

	// SessionStart's context waits for the next prompt; the prompt waits for SessionStart's hooks.
	let started: Promise<string[]> = Promise.resolve([]);
	const onEvent = (event: SessionEvent): Promise<void> | undefined => {
		if (event.type === "session_open") {
			const sources: Record<string, string> = { open: "startup", resume: "resume", new: "clear" };
			const source = sources[event.reason ?? "open"];
			const hooks = source ? matching("SessionStart", [source]) : [];
			if (hooks.length > 0) {
				const earlier = started;
				started = run("SessionStart", hooks, { source }, undefined, true).then(async (outcome) => [...(await earlier), ...outcome.context]);
			}
		} else if (event.type === "compaction_start") {
			const trigger = event.reason === "manual" ? "manual" : "auto";
			const hooks = matching("PreCompact", [trigger]);
			if (hooks.length > 0) return run("PreCompact", hooks, { trigger, custom_instructions: "" }).then(() => {});
		} else if (event.type === "tool_approval_requested") {
			const hooks = matching("Notification");
			const name = claudeCall(event.toolName, {}, cwd).toolName;
			if (hooks.length > 0) void run("Notification", hooks, { message: `loom needs your permission to use ${name}` });
		}
		return undefined;
	};

	session.hooks.before.add(before, { stage: "policy", name: "settings hooks" });
	session.hooks.after.add(after, { stage: "extension", name: "settings hooks" });
	session.subscribe(onEvent, { open: false });
	session.runHooks.onPrompt(async (prompt, signal) => {
		const startContext = await started;
		started = Promise.resolve([]);
		const hooks = matching("UserPromptSubmit");
		const outcome = hooks.length > 0 ? await run("UserPromptSubmit", hooks, { prompt }, signal, true) : undefined;
		if (outcome?.stop !== undefined) return { block: outcome.stop };
		if (outcome?.blocked !== undefined) return { block: `A UserPromptSubmit hook blocked this prompt: ${outcome.blocked}` };
		return { context: [...startContext, ...(outcome?.context ?? [])] };
	});
	session.runHooks.onStop(async ({ continued }, signal) => {
		const hooks = matching("Stop");
		if (hooks.length === 0) return undefined;
		const outcome = await run("Stop", hooks, { stop_hook_active: continued > 0 }, signal);
		if (outcome.stop !== undefined) return undefined;
		return outcome.blocked === undefined ? undefined : `Stop hook feedback:\n${outcome.blocked}`;
	});
	// Disposal is synchronous and loom may exit right after it: the commands run on their own, within their timeouts.
	session.onDispose(() => {
		const hooks = matching("SessionEnd");
		if (hooks.length > 0) void runHookEvent("SessionEnd", hooks, { ...base(), reason: "other" }, { cwd, env, outlive: true, confine: options.confine });
	});

	admitProjectHooks(session, options, all, (hooks) => {
		state.active = [...state.active, ...hooks];
	});
	return installed;
}

/** Adds the project's hooks through `activate` once the user trusts the project and allowed them as they are now. */
function admitProjectHooks(session: AgentSession, options: HooksOptions, all: readonly SettingsHook[], activate: (hooks: SettingsHook[]) => void): void {
	const { cwd, home, trust } = options;
	const project = all.filter((hook) => hook.source.scope === "project");
	if (project.length === 0) return;
	const fingerprint = hooksFingerprint(project);
	const allow = () => {
		try {
			allowHooks(home, cwd, fingerprint);
		} catch (error) {
			session.ui.notify("warning", `The project's hooks run for this session only: the answer could not be saved (${(error as Error).message}).`);
		}
		activate(project);
	};
	const described = project.map((hook) => `${relative(cwd, hook.source.file)}: ${hook.event} hook ${hook.command}`);
	if (options.optIn || (trust.status === "trusted" && hooksAllowed(home, cwd, fingerprint))) {
		activate(project);
		return;
	}
	if (trust.status !== "trusted" || projectTrust(home, cwd) !== true) {
		void trust.whenTrusted(described, allow);
		return;
	}
	// Trusted before, but these hooks are new or changed since the user allowed the project's hooks.
	if (!session.ui.interactive) {
		// Nobody can answer here: the runs go on without them (a gate waiting for an answer would hold every prompt).
		session.addLoadWarning(`The project's hooks changed since they were allowed, so they do not run: ${described.join("; ")}. Start loom interactively to allow them, or pass --trust.`);
		return;
	}
	const answered = session.whenInteractive().then(async (ui) => {
		const yes = await ui.select(
			{
				title: "Run this project's new or changed hooks?",
				body: [
					{ text: "These commands run on loom's events with your permissions:", style: "plain" },
					...described.map((text) => ({ text: `  ${text}`, style: "dim" as const })),
				],
			},
			[
				{ label: "Yes, run them", value: true },
				{ label: "No, not this time", value: false },
			],
		);
		if (yes) allow();
	});
	const removeGate = session.addRunGate((signal) => raceAbort(answered, signal, 0).catch(() => {}));
	answered.finally(removeGate).catch(() => {});
}
