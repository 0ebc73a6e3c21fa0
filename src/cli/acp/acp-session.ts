// One ACP session: a loom AgentSession whose events go to the client as `session/update`s, whose prompts come
// from `session/prompt` and end with a stop reason, and which `session/cancel` stops.
import type { AvailableCommand } from "@agentclientprotocol/sdk";
import { type AgentContext, type ContentBlock, type PromptResponse, RequestError, type SessionUpdate, type StopReason } from "@agentclientprotocol/sdk";
import { readCheckedText, plainNotice, errorMessage, resolveCommand } from "../../core/index.js";
import type { AgentSession, CommandDefinition, CommandSession, NoticeLevel, RunOutcome } from "../../core/index.js";
import { AcpUi } from "./acp-ui.js";
import { promptInput } from "./prompt-content.js";
import { SessionUpdates } from "./session-updates.js";
import type { FileBefore } from "./tool-calls.js";

/** A file's text before a write is shown as the old side of its diff up to this size. */
const MAX_BEFORE_BYTES = 1024 * 1024;

export interface AcpSessionOptions {
	/** The client shows `notice` updates. */
	notices: boolean;
	/** A line for stderr. */
	log: (text: string) => void;
}

export class AcpSession {
	readonly ui: AcpUi;
	private readonly updates: SessionUpdates;
	private readonly unsubscribe: () => void;
	/** The prompt being run, until its response is sent. */
	private running: Promise<RunOutcome> | undefined;
	private cancelled = false;

	constructor(
		readonly session: AgentSession,
		private readonly client: AgentContext,
		options: AcpSessionOptions,
	) {
		this.updates = new SessionUpdates({
			cwd: session.cwd,
			tools: () => session.tools,
			readBefore,
			usage: () => ({ ...session.contextUsage, cost: session.usageTotals.cost }),
		});
		this.ui = new AcpUi({ client, sessionId: () => this.id, send: (updates) => this.send(updates), ...options });
		session.setUi(this.ui);
		// Awaited by the session before its next event: updates reach the client in order, all before the response.
		this.unsubscribe = session.subscribe((event) => this.send(this.updates.translate(event)));
	}

	get id(): string {
		return this.session.sessionId;
	}

	/** Sends updates in order; a client that went away loses them, the run goes on to its end. */
	async send(updates: readonly SessionUpdate[]): Promise<void> {
		for (const update of updates) {
			try {
				await this.client.notify("session/update", { sessionId: this.id, update });
			} catch {
				return;
			}
		}
	}

	/** The client knows the session now: questions may be asked, and the commands are offered. */
	async opened(): Promise<void> {
		this.ui.open();
		await this.send([{ sessionUpdate: "available_commands_update", availableCommands: availableCommands(this.session) }]);
	}

	async prompt(blocks: readonly ContentBlock[]): Promise<PromptResponse> {
		// A client sends its next prompt right after cancelling: the cancelled run is let finish first.
		if (this.running && this.cancelled) await this.running.catch(() => {});
		if (this.running) throw new RequestError(-32600, "This session is already answering a prompt: cancel it (session/cancel) or wait for its answer.");
		const input = promptInput(blocks);
		this.cancelled = false;
		const command = input.images.length === 0 ? promptCommand(this.session, input.text) : undefined;
		const run = command ? this.runCommand(command) : this.session.runPrompt(input.text, { images: input.images });
		this.running = run;
		let outcome: RunOutcome;
		try {
			outcome = await run;
		} catch (error) {
			if (this.cancelled) return { stopReason: "cancelled" };
			// The run could not start (no usable model or key): the message says what to set.
			throw new RequestError(-32603, errorMessage(error));
		} finally {
			if (this.running === run) this.running = undefined;
		}
		// Whatever the stopped run ended with, a cancelled prompt answers "cancelled".
		if (this.cancelled || outcome.status === "aborted") return { stopReason: "cancelled" };
		if (outcome.status === "error") throw new RequestError(-32603, outcome.errorMessage ?? "The model's answer failed.");
		return { stopReason: stopReason(outcome) };
	}

	/**
	 * A slash command in the prompt's place: what it tells the user is the answer, and a run it starts (a prompt
	 * template, a skill) streams like any other and decides how the prompt ends.
	 */
	private async runCommand({ definition, args }: NonNullable<ReturnType<typeof promptCommand>>): Promise<RunOutcome> {
		let told = false;
		const notify = (level: NoticeLevel, text: string) => {
			const line = `${told ? "\n\n" : ""}${plainNotice(level, text)}`;
			told = true;
			void this.send([{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: line } }]);
		};
		let outcome: RunOutcome = { status: "done" };
		// The screen shows these changes in its footer; the editor is told in the answer.
		const stop = this.session.subscribe((event) => {
			if (event.type === "run_end") outcome = { status: event.status, errorMessage: event.errorMessage };
			else if (event.type === "model_changed") notify("info", `Model: ${event.provider}/${event.model}.`);
			else if (event.type === "thinking_changed") notify("info", `Thinking level: ${event.level}.`);
		});
		try {
			await definition.handler(args, { session: this.session, busy: false, ui: this.ui, notify });
		} finally {
			stop();
		}
		return outcome;
	}

	/** Stops the prompt being run (its tools and the model's answer); the prompt then answers "cancelled". */
	cancel(): void {
		if (!this.running) return;
		this.cancelled = true;
		void this.session.abort();
	}

	/** Stops any run and closes the session file. */
	async close(): Promise<void> {
		this.cancel();
		await this.session.abort().catch(() => {});
		this.unsubscribe();
		this.session.dispose();
	}
}

function stopReason(outcome: RunOutcome): StopReason {
	switch (outcome.message?.stopReason) {
		case "length":
			return "max_tokens";
		case "toolUse":
			// The run ended while the model still wanted tools: the turn limit (--max-turns) stopped it.
			return "max_turn_requests";
		default:
			return "end_turn";
	}
}

function readBefore(path: string): FileBefore | undefined {
	try {
		const text = readCheckedText(path, { maxBytes: MAX_BEFORE_BYTES });
		return text.includes("\0") ? undefined : { path, text };
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "ENOENT" ? { path, text: undefined } : undefined;
	}
}

// The session's slash commands as ACP's: offered to the editor (available_commands_update) and run when a
// prompt is "/name args". Those that move the conversation (their definition says so) are left out: the editor
// opens, loads and shows the thread itself, and a command must not swap the conversation under it (nor its
// session id).

/** Whether the editor may be offered `command` and run it. */
function offeredToEditor(command: CommandDefinition<CommandSession>): boolean {
	return command.movesConversation !== true;
}

export function availableCommands(session: AgentSession): AvailableCommand[] {
	return session.commands
		.list()
		.filter(offeredToEditor)
		.map((command) => ({ name: command.name, description: command.description, ...(command.argsHint ? { input: { hint: command.argsHint } } : {}) }));
}

/** The command a prompt's text runs, when it is "/name …" naming one offered to the editor. */
export function promptCommand(session: AgentSession, text: string): { definition: CommandDefinition<CommandSession>; args: string } | undefined {
	const typed = resolveCommand(text, session.commands);
	if (!typed?.definition || !offeredToEditor(typed.definition)) return undefined;
	return { definition: typed.definition, args: typed.args };
}
