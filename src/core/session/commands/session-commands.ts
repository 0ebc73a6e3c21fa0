// The session's own slash commands: model, thinking level, session files, compaction, and the moves through a
// conversation's history. Registered in the session's command registry, so every interface that runs commands offers them.
import { formatCost, formatLocalMinute, formatRelativeTime, formatTokens, stripToOneLine } from "../../lib/index.js";
import { THINKING_LEVELS, type ThinkingLevel } from "../../ai/index.js";
import type { ModelListing } from "../../ai/index.js";
import { type CommandContext, type CommandDefinition, type CommandRegistry, refusedWhileBusy } from "./command-registry.js";
import type { SessionInfo, PromptPoint, SessionTree, UsageTotals } from "../store/index.js";
import { sessionFileText } from "../store/index.js";
import type { StyledLine } from "../../engine/index.js";
import type { FilesRestore } from "../file-checkpoints.js";
import { describeRestorePlan, describeRewind, type RewindResult, type RewindScope } from "../session-rewind.js";
import type { UiChoice } from "../session-ui.js";

/** One saved session, as /resume lists it. */
export type SessionSummary = Pick<SessionInfo, "file" | "id" | "modified" | "firstPrompt" | "messageCount" | "forkOf" | "subagents">;

/** What the session's commands ask of a session. Methods may be sync or async; commands await them either way. */
export interface CommandSession {
	/** The current model. */
	readonly model: { id: string; provider: string } | undefined;
	/** The login the model's requests are signed in with ("ChatGPT login"), undefined for an API key. Optional. */
	readonly credential?: string;
	readonly thinkingLevel: ThinkingLevel;
	/** Undefined when sessions are not saved (--no-session). */
	readonly sessionFile: string | undefined;
	/** Whether the session file exists yet (a new session's appears with its first message). Absent: it does. */
	readonly sessionSaved?: boolean;
	/** How the session is described while it keeps no file; default "not saved". */
	readonly notSavedText?: string;
	/** The session's id (what /resume and --session take). Optional. */
	readonly sessionId?: string;
	/** Messages in the conversation. */
	readonly messageCount: number;
	/** Token and cost totals of the whole session, loaded history included. */
	readonly usageTotals: UsageTotals;
	/** Switches the model by id (or provider/id); throws a user-facing Error for an unknown model. Emits model_changed. */
	setModel(modelId: string): void | Promise<void>;
	/** The models known (catalog and models.json) with whether a key is set, for the /model picker. Optional. */
	availableModels?(): readonly ModelListing[] | Promise<readonly ModelListing[]>;
	/** Emits thinking_changed. */
	setThinkingLevel(level: ThinkingLevel): void | Promise<void>;
	/** Starts a new, empty session (emits session_open). */
	newSession(): void | Promise<void>;
	/** Summarises the conversation to free context (emits compaction_start/end). Optional. */
	compact?(instructions?: string): Promise<void>;
	/** Saved sessions of the working directory, newest first. */
	listSessions(): SessionSummary[] | Promise<SessionSummary[]>;
	/** Opens a saved session by file path or id (emits session_open with its message count). */
	resume(sessionFileOrId: string): void | Promise<void>;
	/** Runs a prompt to the end of its run; rejects when it cannot start (commands that expand to a prompt). */
	prompt(text: string): Promise<void>;
	/** Queues a message into the run going on. */
	steer(text: string): void | Promise<void>;
	/** The conversation's prompts, first to last. Optional, like the rest of the branch methods (/rewind, /tree, /fork). */
	prompts?(): PromptPoint[] | Promise<PromptPoint[]>;
	/** Which of these prompts have a checkpoint of the files. */
	checkpointedPrompts?(promptEntryIds: readonly string[]): Promise<ReadonlySet<string>>;
	/**
	 * Goes back to before a prompt: files, conversation or both (emits session_open when the conversation moves);
	 * `prepared`: the restore previewRewind showed, applied as it is.
	 */
	rewind?(promptEntryId: string, scope: RewindScope, prepared?: FilesRestore): Promise<RewindResult>;
	/** What rewinding the files to before a prompt would do (not done), shown before the user chooses; a string: why none. */
	previewRewind?(promptEntryId: string): Promise<FilesRestore | string>;
	/** Every branch of the conversation as a tree of prompts. */
	tree?(): SessionTree | Promise<SessionTree>;
	/** Moves the conversation to an entry, e.g. the end of another branch (emits session_open). */
	switchLeaf?(entryId: string | null): Promise<void>;
	/** Continues in a new session file from an entry (default: all of it; emits session_open). */
	fork?(entryId?: string | null): Promise<void>;
}

type Context = CommandContext<CommandSession>;

function modelName(session: CommandSession): string {
	return session.model ? `${session.model.provider}/${session.model.id}` : "none";
}

function sessionText(session: CommandSession): string {
	const usage = session.usageTotals;
	return [
		`Session file: ${sessionFileText(session.sessionFile, session.sessionSaved, session.notSavedText)}`,
		`Messages: ${session.messageCount}`,
		`Tokens: ↑${formatTokens(usage.input + usage.cacheRead + usage.cacheWrite)} in (${formatTokens(usage.cacheRead)} cached) · ↓${formatTokens(usage.output)} out${
			usage.reasoning ? ` (${formatTokens(usage.reasoning)} reasoning)` : ""
		}`,
		`Cost: ${formatCost(usage.cost)}`,
		`Model: ${modelName(session)} · thinking ${session.thinkingLevel}`,
		`Credential: ${session.credential ?? "API key"}`,
	].join("\n");
}

/** `/model` without an id: a picker of the known models where someone can choose, else the current one. */
async function pickModel(ctx: Context): Promise<void> {
	const current = modelName(ctx.session);
	const models = (await ctx.session.availableModels?.()) ?? [];
	if (!ctx.ui?.interactive || models.length === 0) {
		ctx.notify("info", `Model: ${current}. Switch with /model <id>.`);
		return;
	}
	const choices = models.map(({ model, hasKey }) => ({
		label: `${model.provider}/${model.id}`,
		value: `${model.provider}/${model.id}`,
		description: `${model.name} · ${formatTokens(model.contextWindow)} context${hasKey ? "" : " · no key"}`,
	}));
	const initialIndex = Math.max(0, choices.findIndex((choice) => choice.value === current));
	const chosen = await ctx.ui.select({ title: `Model (now ${current})`, filter: true, initialIndex }, choices);
	if (chosen !== undefined && chosen !== current) await ctx.session.setModel(chosen);
}

/** One row of a session picker: the first prompt, then how long ago it was last used and its length. */
/** " · 2 subagents" for a session whose task calls started some; "" otherwise. */
export function subagentsText(info: Pick<SessionSummary, "subagents">): string {
	return info.subagents ? ` · ${info.subagents} subagent${info.subagents === 1 ? "" : "s"}` : "";
}

export function sessionChoice(info: SessionSummary, now = new Date()): { label: string; description: string } {
	return {
		label: info.firstPrompt === "" ? "(no prompt yet)" : info.firstPrompt.slice(0, 200),
		description: `${formatRelativeTime(info.modified, now)} · ${info.messageCount} messages${info.forkOf ? ` · fork of ${stripToOneLine(info.forkOf.slice(0, 8))}` : ""}${subagentsText(info)}`,
	};
}

async function resume(args: string, ctx: Context): Promise<void> {
	if (refusedWhileBusy(ctx, "resume a session")) return;
	const sessions = await ctx.session.listSessions();
	if (args === "") {
		if (sessions.length === 0) {
			ctx.notify("info", "No saved sessions in this directory yet.");
			return;
		}
		if (ctx.ui?.interactive) {
			const choices = sessions.map((info) => ({ ...sessionChoice(info), value: info.file }));
			const file = await ctx.ui.select({ title: "Resume which session? (newest first)", filter: true }, choices);
			if (file !== undefined) await ctx.session.resume(file);
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

const BUILT_IN: CommandDefinition<CommandSession>[] = [
	{
		name: "new",
		description: "start a new session",
		movesConversation: true,
		async handler(_args, ctx) {
			if (refusedWhileBusy(ctx, "start a new session")) return;
			await ctx.session.newSession();
		},
	},
	{
		name: "model",
		argsHint: "<id>",
		description: "switch the model (without an id: choose one)",
		async handler(args, ctx) {
			if (args === "") await pickModel(ctx);
			else await ctx.session.setModel(args);
		},
	},
	{
		name: "thinking",
		argsHint: "<level>",
		description: `set the thinking level: ${THINKING_LEVELS.join(", ")}`,
		async handler(args, ctx) {
			if (args === "") {
				ctx.notify("info", `Thinking level: ${ctx.session.thinkingLevel}. Set with /thinking <${THINKING_LEVELS.join("|")}>.`);
				return;
			}
			const level = args.toLowerCase() as ThinkingLevel;
			if (!THINKING_LEVELS.includes(level)) {
				ctx.notify("error", `Unknown thinking level "${args}". Use one of: ${THINKING_LEVELS.join(", ")}.`);
				return;
			}
			await ctx.session.setThinkingLevel(level);
		},
	},
	{
		name: "session",
		description: "session file, messages, tokens and cost",
		handler: (_args, ctx) => ctx.notify("info", sessionText(ctx.session)),
	},
	{
		name: "resume",
		argsHint: "[n|id|file]",
		description: "list recent sessions, or open one",
		movesConversation: true,
		handler: resume,
	},
	{
		name: "compact",
		argsHint: "[instructions]",
		description: "summarise the conversation to free context",
		async handler(args, ctx) {
			if (!ctx.session.compact) {
				ctx.notify("error", "This session cannot compact.");
				return;
			}
			if (refusedWhileBusy(ctx, "compact")) return;
			await ctx.session.compact(args === "" ? undefined : args);
		},
	},
];

// The commands that move through a conversation's history: /rewind (files and conversation back to before a
// prompt), /tree (switch to another branch), /fork (go on in a new session file). They ask through ctx.ui and
// call the session's plain methods (rewind, tree, switchLeaf, fork), which RPC can call directly.

/** How long a prompt's text is in a picker row. */
const ROW_TEXT = 80;

function rowText(text: string): string {
	const line = stripToOneLine(text);
	if (line === "") return "(no text)";
	return line.length > ROW_TEXT ? `${line.slice(0, ROW_TEXT - 1)}…` : line;
}

function when(timestamp: string): string {
	const date = new Date(timestamp);
	return Number.isNaN(date.getTime()) ? "" : formatLocalMinute(date);
}

/** A /tree row for where the conversation is after a rewind, before a prompt starts that branch. */
const POSITION_TEXT = "(here: the next prompt starts this branch)";

/** The picker is the only way to choose: without a dialog, the command says where else to go. */
function interactiveUi(ctx: Context, command: string): NonNullable<Context["ui"]> | undefined {
	if (ctx.ui?.interactive) return ctx.ui;
	ctx.notify("error", `/${command} asks you to choose in a dialog, which this interface cannot show.`);
	return undefined;
}

const SCOPES: readonly UiChoice<RewindScope>[] = [
	{ label: "Restore files and conversation", value: { files: true, conversation: true } },
	{ label: "Conversation only", value: { files: false, conversation: true }, description: "the files stay as they are" },
	{ label: "Files only", value: { files: true, conversation: false }, description: "the conversation stays as it is" },
];

async function rewind(_args: string, ctx: Context): Promise<void> {
	const session = ctx.session;
	if (!session.rewind || !session.prompts) return ctx.notify("error", "This session cannot rewind.");
	if (refusedWhileBusy(ctx, "rewind")) return;
	const prompts = await session.prompts();
	if (prompts.length === 0) return ctx.notify("info", "Nothing to rewind yet: no prompt has been sent in this conversation.");
	const ui = interactiveUi(ctx, "rewind");
	if (!ui) return;
	const withFiles = (await session.checkpointedPrompts?.(prompts.map((point) => point.entryId))) ?? new Set<string>();
	const choices = [...prompts].reverse().map(
		(point): UiChoice<PromptPoint> => ({
			label: rowText(point.text),
			value: point,
			description: `${when(point.timestamp)}${withFiles.has(point.entryId) ? "" : " · no checkpoint of the files"}`,
		}),
	);
	const chosen = await ui.select({ title: "Rewind to before which prompt?", filter: true }, choices);
	if (!chosen) return;
	const body: StyledLine[] = [{ text: `Before: ${rowText(chosen.text)}`, style: "dim" }];
	// What the files' restore would do, worked out before the choice and applied as shown.
	const preview = withFiles.has(chosen.entryId) && session.previewRewind ? await session.previewRewind(chosen.entryId) : undefined;
	const filesCanGo = withFiles.has(chosen.entryId) && typeof preview !== "string";
	if (!withFiles.has(chosen.entryId)) body.push({ text: "No checkpoint of the files was kept for this prompt: only the conversation can go back.", style: "dim" });
	else if (typeof preview === "string") body.push({ text: `${preview} Only the conversation can go back.`, style: "dim" });
	else if (preview) body.push({ text: "If the files go back:", style: "plain" }, ...describeRestorePlan(preview).map((line): StyledLine => ({ text: `  ${line}`, style: "plain" })));
	const scopes = filesCanGo ? SCOPES : SCOPES.filter((scope) => !scope.value.files);
	const scope = await ui.select({ title: "What goes back?", body }, scopes);
	if (!scope) return;
	const result = await session.rewind(chosen.entryId, scope, scope.files && typeof preview === "object" ? preview : undefined);
	const notice = describeRewind(result);
	ctx.notify(notice.level, notice.text);
	if (result.conversation) ctx.setEditorText?.(result.promptText);
}

async function tree(_args: string, ctx: Context): Promise<void> {
	const session = ctx.session;
	if (!session.tree || !session.switchLeaf) return ctx.notify("error", "This session has no branches to show.");
	if (refusedWhileBusy(ctx, "switch branches")) return;
	const { rows, branched, at } = await session.tree();
	if (rows.length === 0) return ctx.notify("info", "No prompts yet: the conversation has no branches.");
	const ui = interactiveUi(ctx, "tree");
	if (!ui) return;
	// The rows of one branch share its message count: it is said once, on the row that ends the branch.
	const ends = new Map(rows.map((row, index) => [row.leafId, index]));
	const choices = rows.map((row, index) => ({
		label: `${row.prefix}${row.here ? "● " : ""}${row.kind === "position" ? POSITION_TEXT : rowText(row.text)}`,
		value: row,
		description: [ends.get(row.leafId) === index ? `${row.messages} messages` : "", when(row.timestamp), subagentsText(row).replace(/^ · /, ""), row.here ? "you are here" : ""]
			.filter((part) => part !== "")
			.join(" · "),
	}));
	const title = branched ? "Switch to which branch? (its newest message)" : "The conversation has one branch; /rewind makes another.";
	const chosen = await ui.select({ title, filter: true, initialIndex: Math.max(0, rows.findIndex((row) => row.here)) }, choices);
	if (!chosen) return;
	if (chosen.leafId === at) return ctx.notify("info", "Already there: that is where the conversation is.");
	await session.switchLeaf(chosen.leafId);
	// A branch's answers may describe files that a rewind has since put back: say that they were not touched.
	ctx.notify("info", "Switched the conversation only: the files stay as they are.");
}

async function fork(_args: string, ctx: Context): Promise<void> {
	const session = ctx.session;
	if (!session.fork) return ctx.notify("error", "This session cannot fork.");
	if (refusedWhileBusy(ctx, "fork")) return;
	// An empty fork of an empty conversation would name a parent that has no file yet.
	if (session.messageCount === 0) return ctx.notify("info", "Nothing to fork yet: the conversation has no messages.");
	const prompts = (await session.prompts?.()) ?? [];
	let at: PromptPoint | "all" | undefined = "all";
	if (prompts.length > 0 && ctx.ui?.interactive) {
		const choices: UiChoice<PromptPoint | "all">[] = [
			{ label: "The whole conversation", value: "all", description: "everything so far" },
			...[...prompts].reverse().map((point) => ({ label: `Before: ${rowText(point.text)}`, value: point, description: when(point.timestamp) })),
		];
		at = await ctx.ui.select({ title: "Fork from where? The new session starts with the conversation up to there.", filter: true }, choices);
	}
	if (at === undefined) return;
	// The new session's id, file and parent are announced with it (session_open); this says how to go back.
	const parent = session.sessionFile === undefined ? undefined : session.sessionId;
	await session.fork(at === "all" ? undefined : at.parentId);
	if (parent !== undefined) ctx.notify("info", `/resume ${parent} goes back to the session it was forked from.`);
	if (at !== "all") ctx.setEditorText?.(at.text);
}

const BRANCH_COMMANDS: readonly CommandDefinition<CommandSession>[] = [
	{ name: "rewind", description: "go back to before a prompt: files, conversation or both", movesConversation: true, handler: rewind },
	{ name: "tree", description: "show the conversation's branches and switch to another", movesConversation: true, handler: tree },
	{ name: "fork", description: "go on in a new session from a point of this conversation", movesConversation: true, handler: fork },
];

export const SESSION_COMMANDS: readonly CommandDefinition<CommandSession>[] = [...BUILT_IN, ...BRANCH_COMMANDS].map((command) => ({ ...command, source: "builtin" }));

/** Registers the session's commands in `registry`. */
export function registerSessionCommands(registry: CommandRegistry<CommandSession>): void {
	for (const command of SESSION_COMMANDS) registry.register(command);
}
