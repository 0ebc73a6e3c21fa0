// Every command RPC mode serves, one handler each: a handler reads its fields, acts on the session and returns
// the response's data (undefined: none); throwing answers with an error response. Names and fields follow Pi's
// RPC mode where Pi has the command.
import type { ImageContent } from "../../core/index.js";
import {
	THINKING_LEVELS,
	busyRefusal,
	type AgentSession,
	type CommandSession,
	type CompactionEntry,
	describeRewind,
	type NoticeLevel,
	type PromptPoint,
	type ResolvedCommand,
	resolveCommand,
	type RewindResult,
	type SessionEvent,
} from "../../core/index.js";
import {
	CommandError,
	type RpcCommand,
	choiceField,
	imagesField,
	optionalBoolean,
	optionalString,
	stringField,
} from "./rpc-protocol.js";
import { lastAssistantText, type ModeState, publicModel, sessionState, sessionStats } from "./rpc-state.js";
import type { RpcUi } from "./rpc-ui.js";

/** What handlers work with. */
export interface RpcContext {
	session: AgentSession;
	ui: RpcUi;
	mode: ModeState;
	/** A run is going on or starting. */
	busy(): boolean;
	/**
	 * Runs `start`, which may start a prompt's run, and resolves at the run's run_start (started: true) or, when
	 * no run starts, once `start` settles with its value; rejects when `start` rejects before a run started.
	 */
	startRun<T>(start: () => Promise<T>): Promise<{ started: true } | { started: false; value: T }>;
	/** Resolves once no prompt is between its command and its run_start. */
	whenStarted(): Promise<void>;
	/** Resolves once no run is going on and the last one's run_end is written. */
	runsEnded(): Promise<void>;
}

type Handler = (command: RpcCommand, ctx: RpcContext) => unknown;

/** Returned by handlers whose command is answered by nothing when it succeeds (answers to requests). */
export const NO_RESPONSE = Symbol("no response");

const BUSY = busyRefusal(
	"start another prompt",
	'Send steer or follow_up to add to it (or prompt with "streamingBehavior": "steer" or "followUp"), or abort it first.',
);

export const COMMANDS: Readonly<Record<string, Handler>> = {
	async prompt(command, ctx) {
		const text = stringField(command, "message");
		const images = imagesField(command);
		const behaviour = command.fields.streamingBehavior === undefined ? undefined : choiceField(command, "streamingBehavior", ["steer", "followUp"]);
		// A prompt that names a registered command ("/compact focus on tests") runs it, as typed in the screen.
		const call = resolveCommand(text, ctx.session.commands);
		if (call?.definition) {
			// Judged before this prompt counts as starting: the command sees the run going on, not itself.
			const busy = ctx.busy();
			await ctx.startRun(() => runCommand(ctx, call, busy, (level, notice) => ctx.ui.notify(level, notice)));
			return undefined;
		}
		if (ctx.busy()) {
			if (!behaviour) throw new CommandError(BUSY);
			await queue(ctx, behaviour, text, images);
			return undefined;
		}
		await startPrompt(ctx, text, images);
		return undefined;
	},
	steer: (command, ctx) => queue(ctx, "steer", stringField(command, "message"), imagesField(command)),
	follow_up: (command, ctx) => queue(ctx, "followUp", stringField(command, "message"), imagesField(command)),
	async abort(_command, ctx) {
		await ctx.session.abort();
		// Answered after the run's run_end, so the client has heard how it ended.
		await ctx.runsEnded();
	},

	get_state: (_command, ctx) => sessionState(ctx.session, ctx.mode),
	get_messages: (_command, ctx) => ({ messages: ctx.session.messages }),
	get_session_stats: (_command, ctx) => sessionStats(ctx.session),
	get_last_assistant_text: (_command, ctx) => ({ text: lastAssistantText(ctx.session) }),
	get_available_models: (_command, ctx) => ({
		models: ctx.session.availableModels().map(({ model, hasKey }) => ({ ...publicModel(model), hasKey })),
	}),

	async set_model(command, ctx) {
		const modelId = stringField(command, "modelId");
		const provider = optionalString(command, "provider");
		// "provider/id" keeps the endpoint and key overrides when the provider stays the same.
		await ctx.session.setModel(provider ? `${provider}/${modelId}` : modelId);
		return publicModel(ctx.session.model);
	},
	async set_thinking_level(command, ctx) {
		await ctx.session.setThinkingLevel(choiceField(command, "level", THINKING_LEVELS));
	},
	set_tool_execution(command, ctx) {
		// Read when each run starts: a run going on keeps the mode it started with.
		ctx.session.agent.toolExecution = choiceField(command, "mode", ["parallel", "sequential"]);
	},
	set_steering_mode(command, ctx) {
		ctx.session.agent.steeringMode = choiceField(command, "mode", ["all", "one-at-a-time"]);
	},
	set_follow_up_mode(command, ctx) {
		ctx.session.agent.followUpMode = choiceField(command, "mode", ["all", "one-at-a-time"]);
	},

	async compact(command, ctx) {
		if (ctx.busy()) throw new CommandError(busyRefusal("compact", "Wait for run_end, or abort the run first."));
		let end: Extract<SessionEvent, { type: "compaction_end" }> | undefined;
		const stop = ctx.session.subscribe((event) => {
			if (event.type === "compaction_end" && event.reason === "manual") end = event;
		});
		try {
			await ctx.session.compact(optionalString(command, "customInstructions"));
		} finally {
			stop();
		}
		if (!end || end.aborted) throw new CommandError("The compaction was aborted; the conversation is unchanged.");
		if (end.error) throw new CommandError(`The compaction failed: ${end.error}`);
		const entry = ctx.session.entries.findLast((candidate): candidate is CompactionEntry => candidate.type === "compaction");
		return { summary: end.summary, tokensBefore: end.tokensBefore, firstKeptEntryId: entry?.firstKeptEntryId };
	},

	async new_session(_command, ctx) {
		await ctx.session.newSession();
		return { cancelled: false };
	},
	async switch_session(command, ctx) {
		await ctx.session.resume(stringField(command, "sessionPath"));
		return { cancelled: false };
	},
	list_sessions: (_command, ctx) => ({ sessions: ctx.session.listSessions() }),

	get_fork_messages: (_command, ctx) => ({ messages: ctx.session.prompts().map(({ entryId, text }) => ({ entryId, text })) }),
	async fork(command, ctx) {
		// As /fork: a new session holding the conversation before that prompt, whose text comes back to resend or edit.
		const prompt = promptOf(ctx, stringField(command, "entryId"));
		await ctx.session.fork(prompt.parentId);
		return { text: prompt.text, cancelled: false };
	},
	async rewind(command, ctx) {
		const prompt = promptOf(ctx, stringField(command, "entryId"));
		const files = optionalBoolean(command, "files") ?? false;
		const conversation = optionalBoolean(command, "conversation") ?? true;
		if (!files && !conversation) throw new CommandError('rewind needs "files" or "conversation" (or both) to be true.');
		const result = await ctx.session.rewind(prompt.entryId, { files, conversation });
		return {
			text: result.promptText,
			conversation: result.conversation,
			...(result.files ? { files: filesReport(result.files) } : {}),
			...(result.filesProblem ? { filesProblem: result.filesProblem } : {}),
			summary: describeRewind(result).text,
		};
	},

	list_commands: listCommands,
	get_commands: listCommands,
	async run_command(command, ctx) {
		const name = stringField(command, "name").replace(/^\//, "");
		const notices: { level: NoticeLevel; text: string }[] = [];
		const args = optionalString(command, "args")?.trim() ?? "";
		await runCommand(ctx, { name, args, definition: ctx.session.commands.get(name) }, ctx.busy(), (level, text) => notices.push({ level, text }));
		const errors = notices.filter((notice) => notice.level === "error");
		if (errors.length > 0) throw new CommandError(errors.map((notice) => notice.text).join("\n"));
		return { notices };
	},

	extension_ui_response(command, ctx) {
		ctx.ui.answer(command);
		return NO_RESPONSE;
	},
	approval_response(command, ctx) {
		ctx.ui.answerApproval(command);
		return NO_RESPONSE;
	},
};

/** Starts a prompt's run; answered at its run_start. */
async function startPrompt(ctx: RpcContext, text: string, images: ImageContent[]): Promise<void> {
	if (text.trim() === "" && images.length === 0) throw new CommandError("The message is empty: say what the model should do.");
	const start = await ctx.startRun(() => ctx.session.runPrompt(text, { images }));
	if (!start.started && start.value.status === "aborted") throw new CommandError("The prompt was aborted before its run started.");
}

/** steer / follow_up: into the run going on, or, when none is, the start of one. */
async function queue(ctx: RpcContext, kind: "steer" | "followUp", text: string, images: ImageContent[]): Promise<void> {
	// A prompt between its command and its run_start: the message joins that run.
	await ctx.whenStarted();
	if (!ctx.session.isStreaming) return startPrompt(ctx, text, images);
	if (images.length > 0) throw new CommandError("While a run is going on, steer and follow_up carry text only: send the images with the next prompt.");
	if (text.trim() === "") throw new CommandError("The message is empty.");
	if (kind === "steer") ctx.session.steer(text);
	else ctx.session.followUp(text);
}

function listCommands(_command: RpcCommand, ctx: RpcContext) {
	const commands = ctx.session.commands.list().map((command) => ({
		name: command.name,
		description: command.description,
		...(command.argsHint ? { argsHint: command.argsHint } : {}),
		...(command.source ? { source: command.source } : {}),
		...(command.origin ? { path: command.origin } : {}),
	}));
	return { commands };
}

async function runCommand(
	ctx: RpcContext,
	{ name, args, definition }: ResolvedCommand<CommandSession>,
	busy: boolean,
	notify: (level: NoticeLevel, text: string) => void,
): Promise<void> {
	if (!definition) throw new CommandError(`Unknown command /${name}: list_commands lists the commands there are.`);
	await definition.handler(args, { session: ctx.session, notify, busy, ui: ctx.ui, setEditorText: (text) => ctx.ui.setEditorText(text) });
}

/** A prompt of the conversation by its entry id (get_fork_messages lists them). */
function promptOf(ctx: RpcContext, entryId: string): PromptPoint {
	const prompt = ctx.session.prompts().find((point) => point.entryId === entryId);
	if (!prompt) throw new CommandError(`Entry ${JSON.stringify(entryId)} is not a prompt of this conversation: get_fork_messages lists them.`);
	return prompt;
}

function filesReport({ restore, report }: NonNullable<RewindResult["files"]>) {
	return { ...report, notRestored: restore.notRestored, ...(restore.note ? { note: restore.note } : {}) };
}
