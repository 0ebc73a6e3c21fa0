// Which conversation a session is in, and moving it: to another branch of its file (/tree), back to before a
// prompt (/rewind: files, conversation or both), into a fork, a new file or a saved session (never during a run);
// each arrival rebuilds the agent's conversation and is announced with session_open.
import type { Agent } from "../engine/index.js";
import type { AgentSessionOptions } from "./agent-session-types.js";
import { busyRefusal } from "./commands/index.js";
import type { FileCheckpoints, FilesRestore } from "./file-checkpoints.js";
import type { ModelChoice } from "./model-choice.js";
import type { SessionEvent, SessionOpenReason } from "./session-events.js";
import {
	listSessions,
	type SessionInfo,
	resolveSessionArgument,
	SessionStore,
	type PromptPoint,
	type SessionTree,
	promptPoints,
	sessionTree,
	latestTodos,
} from "./store/index.js";
import type { SessionRecord } from "./session-record.js";
import { type RewindResult, type RewindScope, prepareRestore, restoreFiles } from "./session-rewind.js";
import type { SessionUi } from "./session-ui.js";

/** What navigation uses of its session. */
export interface NavigationHost {
	options: Pick<AgentSessionOptions, "home" | "cwd" | "createStore" | "notSavedText">;
	agent: Agent;
	choice: ModelChoice;
	record: SessionRecord;
	emit(event: SessionEvent): Promise<void>;
	checkpoints(): FileCheckpoints | undefined;
	ui(): SessionUi;
	busy(): boolean;
	abort(): Promise<void>;
	/** Drops the queued messages of the conversation left. */
	forgetQueue(): void;
}

export class SessionNavigation {
	constructor(private readonly host: NavigationHost) {}

	private get store(): SessionStore {
		return this.host.record.store;
	}

	prompts(): PromptPoint[] {
		return promptPoints(this.store.entries);
	}

	async checkpointedPrompts(promptEntryIds: readonly string[]): Promise<ReadonlySet<string>> {
		return (await this.host.checkpoints()?.checkpointed(promptEntryIds)) ?? new Set();
	}

	tree(): SessionTree {
		return sessionTree(this.store.allEntries, this.store.lastEntryId);
	}

	async switchLeaf(entryId: string | null, reason: "branch" | "rewind"): Promise<void> {
		this.refuseWhileBusy(reason === "rewind" ? "rewind" : "switch branches");
		this.store.branch(entryId);
		await this.load(reason);
	}

	async previewRewind(promptEntryId: string): Promise<FilesRestore | string> {
		this.refuseWhileBusy("rewind");
		this.promptPoint(promptEntryId);
		return prepareRestore(this.host.checkpoints(), promptEntryId);
	}

	async rewind(promptEntryId: string, scope: RewindScope, prepared?: FilesRestore): Promise<RewindResult> {
		this.refuseWhileBusy("rewind");
		const prompt = this.promptPoint(promptEntryId);
		const result: RewindResult = { promptText: prompt.text, conversation: false };
		if (scope.files) {
			const files = await restoreFiles(this.host.checkpoints(), promptEntryId, this.host.ui(), prepared);
			if (typeof files === "string") result.filesProblem = files;
			else result.files = files;
		}
		if (scope.conversation) {
			await this.switchLeaf(prompt.parentId, "rewind");
			result.conversation = true;
		}
		return result;
	}

	private promptPoint(promptEntryId: string): PromptPoint {
		const prompt = this.prompts().find((point) => point.entryId === promptEntryId);
		if (!prompt) throw new Error(`Entry ${promptEntryId} is not a prompt of this conversation.`);
		return prompt;
	}

	async fork(entryId: string | null | undefined): Promise<void> {
		this.refuseWhileBusy("fork");
		const at = entryId === undefined ? this.store.lastEntryId : entryId;
		const { home, cwd } = this.host.options;
		await this.switchTo(this.store.forkAt(at, { home, cwd, persist: this.store.file !== undefined }), "fork");
	}

	async newSession(): Promise<void> {
		await this.switchTo(this.host.options.createStore(), "new");
	}

	listSessions(): SessionInfo[] {
		return listSessions(this.host.options.home, this.host.options.cwd);
	}

	async resume(sessionFileOrId: string): Promise<void> {
		const file = resolveSessionArgument(sessionFileOrId, this.host.options.home, this.host.options.cwd);
		await this.switchTo(await SessionStore.open(file), "resume");
	}

	/** session_open for the conversation the session is in, then session_error when its model cannot be used. */
	async announce(reason: SessionOpenReason): Promise<void> {
		const { agent, choice } = this.host;
		// A fork is written as it opens, copy and all, so quitting before its next message keeps it.
		const saveError = reason === "fork" ? this.host.record.save() : undefined;
		const { id, file, saved, header } = this.store;
		await this.host.emit({
			type: "session_open",
			reason,
			sessionId: id,
			file,
			saved,
			...(file === undefined && this.host.options.notSavedText !== undefined ? { notSavedText: this.host.options.notSavedText } : {}),
			...(header.parentSession === undefined ? {} : { parentSession: header.parentSession }),
			cwd: this.host.options.cwd,
			provider: choice.provider,
			model: choice.modelId,
			...(choice.credential === undefined ? {} : { credential: choice.credential }),
			thinkingLevel: agent.state.thinkingLevel,
			messageCount: agent.state.messages.length,
			...(this.host.record.taint === undefined ? {} : { taint: this.host.record.taint }),
			...todosOf(this.store.entries),
		});
		if (saveError) await this.host.emit({ type: "session_error", message: saveError });
		if (choice.error) await this.host.emit({ type: "session_error", message: choice.error });
	}

	private async switchTo(store: SessionStore, reason: SessionOpenReason): Promise<void> {
		if (this.host.busy()) await this.host.abort();
		await this.load(reason, store);
	}

	/** Rebuilds the agent's conversation from a file (new, opened, or its leaf moved) and announces it. */
	private async load(reason: SessionOpenReason, store?: SessionStore): Promise<void> {
		const { agent, choice, record } = this.host;
		agent.reset();
		this.host.forgetQueue();
		const context = record.load(store);
		agent.replaceMessages(context.messages);
		if (context.model && !record.recorded(choice.provider, choice.modelId)) {
			try {
				agent.setModel(choice.change({ provider: context.model.provider, modelId: context.model.modelId }));
			} catch {
				// The session's model cannot be used here (no key): carry on with the current one.
			}
		}
		if (context.thinkingLevel) agent.setThinkingLevel(context.thinkingLevel);
		await this.announce(reason);
	}

	private refuseWhileBusy(what: string): void {
		if (this.host.busy()) throw new Error(busyRefusal(what, "Wait for it to end or interrupt it first."));
	}
}

function todosOf(entries: Parameters<typeof latestTodos>[0]): { todos?: ReturnType<typeof latestTodos> } {
	const todos = latestTodos(entries);
	return todos.length === 0 ? {} : { todos };
}
