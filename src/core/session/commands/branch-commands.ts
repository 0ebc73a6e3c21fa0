// The commands that move through a conversation's history: /rewind (files and conversation back to before a
// prompt), /tree (switch to another branch), /fork (go on in a new session file). They ask through ctx.ui and
// call the session's plain methods (rewind, tree, switchLeaf, fork), which RPC can call directly.
import { formatLocalMinute } from "../../lib/format.js";
import { stripToOneLine } from "../../lib/text/sanitize-terminal.js";
import { type CommandContext, type CommandDefinition, refusedWhileBusy } from "./command-registry.js";
import type { CommandSession } from "./session-commands.js";
import { describeRewind, type RewindScope } from "../session-rewind.js";
import type { PromptPoint } from "../store/session-tree.js";
import type { UiChoice } from "../session-ui.js";

type Context = CommandContext<CommandSession>;

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
	const scopes = withFiles.has(chosen.entryId) ? SCOPES : SCOPES.filter((scope) => !scope.value.files);
	const body = [{ text: `Before: ${rowText(chosen.text)}`, style: "dim" as const }];
	if (!withFiles.has(chosen.entryId)) body.push({ text: "No checkpoint of the files was kept for this prompt: only the conversation can go back.", style: "dim" });
	const scope = await ui.select({ title: "What goes back?", body }, scopes);
	if (!scope) return;
	const result = await session.rewind(chosen.entryId, scope);
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
	const choices = rows.map((row) => ({
		label: `${row.prefix}${row.here ? "● " : ""}${row.kind === "position" ? POSITION_TEXT : rowText(row.text)}`,
		value: row,
		description: `${row.messages} messages · ${when(row.timestamp)}${row.here ? " · you are here" : ""}`,
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

export const BRANCH_COMMANDS: readonly CommandDefinition<CommandSession>[] = [
	{ name: "rewind", description: "go back to before a prompt: files, conversation or both", handler: rewind },
	{ name: "tree", description: "show the conversation's branches and switch to another", handler: tree },
	{ name: "fork", description: "go on in a new session from a point of this conversation", handler: fork },
];
