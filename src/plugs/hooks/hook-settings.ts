// Which settings hooks are in force and where each came from: loom's own settings (the user's settings.json and
// the project's .loom/settings.json) and Claude Code's files as they are (~/.claude/settings.json, the project's
// .claude/settings.json and .claude/settings.local.json), all in Claude Code's schema:
// `{"hooks": {"PreToolUse": [{"matcher": "Bash|Edit", "hooks": [{"type": "command", "command": "…", "timeout": 60}]}]}}`.
// Only `hooks` is read of Claude Code's files; entries loom cannot use are skipped with a warning, never fatal.
import { homedir } from "node:os";
import { join } from "node:path";
import { MAX_CONFIG_BYTES, parseJson, projectSettingsPath, readConfigText, settingsPath, type Settings } from "../../core/index.js";

export const HOOK_EVENTS = [
	"PreToolUse",
	"PostToolUse",
	"UserPromptSubmit",
	"Stop",
	"SubagentStop",
	"SessionStart",
	"SessionEnd",
	"PreCompact",
	"Notification",
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** Claude Code's default: a minute. */
export const DEFAULT_HOOK_TIMEOUT_S = 60;

export interface HookSource {
	file: string;
	/** Project hooks run only in a trusted project, and only as the user last saw them. */
	scope: "user" | "project";
}

export interface SettingsHook {
	event: HookEvent;
	/** Claude Code's matcher: a regular expression the whole name must match; absent, "" or "*": everything. */
	matcher?: string;
	command: string;
	timeoutS: number;
	source: HookSource;
}

export interface HookLocations {
	/** loom's home: its settings.json is the user's loom settings. */
	home: string;
	cwd: string;
	/** Default ~/.claude. */
	claudeHome?: string;
	/** The user's loom settings already read (default: read from home). */
	settings?: Settings;
}

/** The hooks of every source, user sources first, each file's in its own order; and what was skipped, why. */
export function readSettingsHooks(where: HookLocations): { hooks: SettingsHook[]; warnings: string[] } {
	const claudeHome = where.claudeHome ?? join(homedir(), ".claude");
	const files: { file: string; scope: HookSource["scope"]; given?: unknown }[] = [
		{ file: settingsPath(where.home), scope: "user", ...(where.settings ? { given: where.settings } : {}) },
		{ file: join(claudeHome, "settings.json"), scope: "user" },
		{ file: projectSettingsPath(where.cwd), scope: "project" },
		{ file: join(where.cwd, ".claude", "settings.json"), scope: "project" },
		{ file: join(where.cwd, ".claude", "settings.local.json"), scope: "project" },
	];
	const hooks: SettingsHook[] = [];
	const warnings: string[] = [];
	for (const { file, scope, given } of files) {
		let value = given;
		if (value === undefined) {
			try {
				const text = readConfigText(file, MAX_CONFIG_BYTES);
				if (text === undefined || text.trim() === "") continue;
				value = parseJson(text);
			} catch (error) {
				warnings.push(`${file}: its hooks were not read (${(error as Error).message}).`);
				continue;
			}
		}
		hooks.push(...hooksOf(value, { file, scope }, warnings));
	}
	return { hooks, warnings };
}

/** The hooks of one settings object (its `hooks` key); `warnings` hears of each entry skipped. */
export function hooksOf(value: unknown, source: HookSource, warnings: string[]): SettingsHook[] {
	if (!isObject(value) || value.hooks === undefined) return [];
	if (!isObject(value.hooks)) {
		warnings.push(`${source.file}: "hooks" is not an object of events; skipped.`);
		return [];
	}
	const hooks: SettingsHook[] = [];
	for (const [event, groups] of Object.entries(value.hooks)) {
		if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
			warnings.push(`${source.file}: hooks.${event} is not an event loom knows (${HOOK_EVENTS.join(", ")}); skipped.`);
			continue;
		}
		if (!Array.isArray(groups)) {
			warnings.push(`${source.file}: hooks.${event} is not a list; skipped.`);
			continue;
		}
		groups.forEach((group, g) => {
			if (!isObject(group) || !Array.isArray(group.hooks)) {
				warnings.push(`${source.file}: hooks.${event}[${g}] has no "hooks" list; skipped.`);
				return;
			}
			const matcher = typeof group.matcher === "string" ? group.matcher : undefined;
			if (matcher !== undefined && matcherPattern(matcher) === null) {
				warnings.push(`${source.file}: hooks.${event}[${g}].matcher ${JSON.stringify(matcher)} is not a valid regular expression; skipped.`);
				return;
			}
			group.hooks.forEach((hook: unknown, h: number) => {
				const at = `${source.file}: hooks.${event}[${g}].hooks[${h}]`;
				if (!isObject(hook) || hook.type !== "command" || typeof hook.command !== "string" || hook.command.trim() === "") {
					warnings.push(`${at} is not {"type": "command", "command": "…"}; skipped (loom runs command hooks only).`);
					return;
				}
				const timeout = typeof hook.timeout === "number" && hook.timeout > 0 ? hook.timeout : DEFAULT_HOOK_TIMEOUT_S;
				hooks.push({ event: event as HookEvent, ...(matcher !== undefined ? { matcher } : {}), command: hook.command, timeoutS: timeout, source });
			});
		});
	}
	return hooks;
}

/** The matcher as a regular expression for the whole name; undefined: matches everything; null: not a valid one. */
export function matcherPattern(matcher: string | undefined): RegExp | undefined | null {
	if (matcher === undefined || matcher === "" || matcher === "*") return undefined;
	try {
		return new RegExp(`^(?:${matcher})$`);
	} catch {
		return null;
	}
}

/** Whether the hook applies to something called by any of `names` (a tool's Claude Code name and loom's, a source). */
export function hookMatches(hook: SettingsHook, names: readonly string[]): boolean {
	const pattern = matcherPattern(hook.matcher);
	if (pattern === undefined) return true;
	if (pattern === null) return false;
	return names.some((name) => pattern.test(name));
}

function isObject(value: unknown): value is Record<string, any> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
