// Slash commands typed into the editor. Parsing is pure; running one talks to the session and reports
// back through notices. Errors become one readable line, never a stack trace.
import { THINKING_LEVELS, type ThinkingLevel } from "../core/llm-types.js";
import { formatCost, formatLocalMinute, formatTokens } from "./format.js";
import type { SessionPort } from "./session-port.js";
import type { NoticeLevel } from "./view-model.js";

export interface SlashCommand {
	name: string;
	/** Everything after the name, trimmed. */
	args: string;
}


export const COMMAND_HELP: ReadonlyArray<[string, string]> = [
	["/help", "this help"],
	["/new", "start a new session"],
	["/model <id>", "switch the model (without an id: show the current one)"],
	["/thinking <level>", `set the thinking level: ${THINKING_LEVELS.join(", ")}`],
	["/session", "session file, messages, tokens and cost"],
	["/resume [n|id|file]", "list recent sessions, or open one"],
	["/compact [instructions]", "summarise the conversation to free context"],
	["/quit", "exit (also /exit)"],
];

export const KEY_HELP: ReadonlyArray<[string, string]> = [
	["Enter", "send; while a run is active, queue as a steering message"],
	["Shift+Enter, Alt+Enter, Ctrl+J", "new line (or end the line with \\)"],
	["Up / Down", "previous / next prompt"],
	["Esc", "interrupt the run; queued messages return to the editor"],
	["Ctrl+C", "clear the editor; twice within 2 s: exit"],
	["Ctrl+D", "exit (on an empty editor)"],
	["Ctrl+T", "show thinking in full (the latest again, and those to come), or hide it"],
];

/** A command is "/word" at the very start; "/etc/hosts …" and other paths are prompts. */
export function parseSlashCommand(text: string): SlashCommand | undefined {
	const match = /^\/([a-z][a-z-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
	if (!match) return undefined;
	return { name: match[1], args: (match[2] ?? "").trim() };
}

export interface SlashContext {
	session: SessionPort;
	notify(level: NoticeLevel, text: string): void;
	exit(): void;
	/** A run is active: commands that replace the conversation must wait. */
	busy: boolean;
}

export function errorText(error: unknown): string {
	if (error instanceof Error) return error.message || error.name;
	return typeof error === "string" ? error : "Unknown error";
}

function table(rows: ReadonlyArray<[string, string]>): string {
	const width = Math.max(...rows.map(([left]) => left.length));
	return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`).join("\n");
}

function helpText(): string {
	return `Commands:\n${table(COMMAND_HELP)}\nKeys:\n${table(KEY_HELP)}`;
}

function sessionText(session: SessionPort): string {
	const usage = session.usageTotals;
	const model = session.model ? `${session.model.provider}/${session.model.id}` : "none";
	return [
		`Session file: ${session.sessionFile ?? "not saved (--no-session)"}`,
		`Messages: ${session.messageCount}`,
		`Tokens: ↑${formatTokens(usage.input + usage.cacheRead + usage.cacheWrite)} in (${formatTokens(usage.cacheRead)} cached) · ↓${formatTokens(usage.output)} out`,
		`Cost: ${formatCost(usage.cost)}`,
		`Model: ${model} · thinking ${session.thinkingLevel}`,
	].join("\n");
}

async function resume(args: string, ctx: SlashContext): Promise<void> {
	const sessions = await ctx.session.listSessions();
	if (args === "") {
		if (sessions.length === 0) {
			ctx.notify("info", "No saved sessions in this directory yet.");
			return;
		}
		const lines = sessions.slice(0, 10).map((info, index) => {
			const prompt = info.firstPrompt === "" ? "(no prompt yet)" : info.firstPrompt.slice(0, 60);
			return `  ${index + 1}. ${formatLocalMinute(info.modified)} · ${info.messageCount} messages · ${prompt}`;
		});
		ctx.notify("info", `Recent sessions (open one with /resume <number>):\n${lines.join("\n")}`);
		return;
	}
	const index = /^\d+$/.test(args) ? Number(args) - 1 : -1;
	if (index >= 0 && index >= sessions.length) {
		ctx.notify("error", `There is no session number ${args}; /resume lists them.`);
		return;
	}
	await ctx.session.resume(index >= 0 ? sessions[index].file : args);
}

async function run(command: SlashCommand, ctx: SlashContext): Promise<void> {
	const { session } = ctx;
	const needsIdle = (what: string) => {
		if (!ctx.busy) return false;
		ctx.notify("error", `Cannot ${what} while a run is active. Press Esc to interrupt it first.`);
		return true;
	};
	switch (command.name) {
		case "help":
			ctx.notify("info", helpText());
			return;
		case "quit":
		case "exit":
			ctx.exit();
			return;
		case "new":
			if (needsIdle("start a new session")) return;
			await session.newSession();
			return;
		case "model":
			if (command.args === "") {
				const model = session.model ? `${session.model.provider}/${session.model.id}` : "none";
				ctx.notify("info", `Model: ${model}. Switch with /model <id>.`);
				return;
			}
			await session.setModel(command.args);
			return;
		case "thinking": {
			if (command.args === "") {
				ctx.notify("info", `Thinking level: ${session.thinkingLevel}. Set with /thinking <${THINKING_LEVELS.join("|")}>.`);
				return;
			}
			const level = command.args.toLowerCase() as ThinkingLevel;
			if (!THINKING_LEVELS.includes(level)) {
				ctx.notify("error", `Unknown thinking level "${command.args}". Use one of: ${THINKING_LEVELS.join(", ")}.`);
				return;
			}
			await session.setThinkingLevel(level);
			return;
		}
		case "session":
			ctx.notify("info", sessionText(session));
			return;
		case "resume":
			if (needsIdle("resume a session")) return;
			await resume(command.args, ctx);
			return;
		case "compact":
			if (!session.compact) {
				ctx.notify("error", "This session cannot compact.");
				return;
			}
			if (needsIdle("compact")) return;
			await session.compact(command.args === "" ? undefined : command.args);
			return;
		default:
			ctx.notify("error", `Unknown command /${command.name}. /help lists the commands.`);
	}
}

/** Runs a command; its failure is reported as an error notice. */
export async function runSlashCommand(command: SlashCommand, ctx: SlashContext): Promise<void> {
	try {
		await run(command, ctx);
	} catch (error) {
		ctx.notify("error", errorText(error));
	}
}
