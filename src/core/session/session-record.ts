// The session file a session writes to, and what the session knows from it: the conversation it continues
// (repaired where the file was damaged), the usage totals, the model and thinking level last recorded.
// Writing never throws: a failure comes back as the problem to report.
import type { AgentMessage } from "../engine/index.js";
import { errorMessage } from "../lib/index.js";
import type { ThinkingLevel } from "../ai/index.js";
import { missingResult, unansweredToolCalls, type UsageTotals, addUsage, sumEntryUsage } from "./store/index.js";
import { type SessionContext, buildSessionContext } from "./compaction/index.js";
import type { EntryPayload, SessionEntry, SessionStore } from "./store/index.js";

const INTERRUPTED_TOOL_TEXT = "Interrupted: loom exited while this tool was running; its result is unknown.";

export class SessionRecord {
	private current: SessionStore;
	/** What loading the file's conversation found damaged; each request repairs it. */
	private repairs: readonly string[] = [];
	private totals: UsageTotals;
	private readonly settings: SettingsRecord;
	private taintSource: string | undefined;
	/** The conversation the file held when the session opened (model's view, model and thinking level recorded). */
	readonly opened: SessionContext;

	constructor(
		store: SessionStore,
		private readonly view?: (entries: readonly SessionEntry[]) => AgentMessage[],
	) {
		this.current = store;
		this.opened = this.read();
		this.taintSource = this.opened.taint;
		this.settings = new SettingsRecord(this.opened);
		this.totals = sumEntryUsage(store.allEntries);
	}

	get store(): SessionStore {
		return this.current;
	}

	get usage(): UsageTotals {
		return this.totals;
	}

	/** The file's problems: lines skipped, conversation repaired. */
	get warnings(): string[] {
		const where = this.current.file ? `${this.current.file}: ` : "";
		return [...this.current.warnings, ...this.repairs.map((repair) => `${where}${repair}.`)];
	}

	/** Whether the file last recorded this model. */
	recorded(provider: string, modelId: string): boolean {
		return this.settings.hasModel(provider, modelId);
	}

	/** Takes another file (closing the one before), or the same one after its leaf moved; returns its conversation. */
	load(store: SessionStore = this.current): SessionContext {
		if (store !== this.current) this.current.close();
		this.current = store;
		const context = this.read();
		this.totals = sumEntryUsage(store.allEntries);
		this.settings.reset(context);
		this.taintSource = context.taint;
		return context;
	}

	/** Appends a message (at its message_end) and counts its usage. */
	append(message: AgentMessage): string | undefined {
		this.totals = addUsage(this.totals, message);
		return this.attempt(() => this.current.append({ type: "message", message }));
	}

	/** What marked the conversation as holding untrusted text; undefined: nothing, or the user cleared it. */
	get taint(): string | undefined {
		return this.taintSource;
	}

	/** Records the mark (a source) or its clearing (undefined). */
	writeTaint(source: string | undefined): string | undefined {
		this.taintSource = source;
		return this.attempt(() => this.current.append({ type: "taint", source: source ?? null }));
	}

	/** Appends an entry that is no message (a todo list, an approved plan). */
	appendEntry(payload: Extract<EntryPayload, { type: "todo" | "plan" }>): string | undefined {
		return this.attempt(() => this.current.append(payload));
	}

	/** Writes a file held in memory so far (a fork's copy) now. */
	save(): string | undefined {
		return this.attempt(() => this.current.save());
	}

	/** Appends model and thinking changes (held until a new session's first message). */
	writeSettings(current: { provider: string; modelId: string; usable: boolean; thinking: ThinkingLevel }): string | undefined {
		return this.attempt(() => this.settings.write(this.current, current));
	}

	/** Gives every tool call still without a result an interrupted one, so the file stays complete; then closes it. */
	finish(): void {
		const messages = this.current.entries.flatMap((entry) => (entry.type === "message" ? [entry.message] : []));
		for (const call of unansweredToolCalls(messages)) this.append(missingResult(call, INTERRUPTED_TOOL_TEXT));
		this.current.close();
	}

	private read(): SessionContext {
		const context = buildSessionContext(this.current.entries, this.view);
		this.repairs = context.repairs;
		return context;
	}

	private attempt(write: () => void): string | undefined {
		try {
			write();
			return undefined;
		} catch (error) {
			return `Could not write the session file ${this.current.file}: ${errorMessage(error)}`;
		}
	}
}

/** Which model and thinking level the session file last recorded, so each change is written once. */
export class SettingsRecord {
	private model: string | undefined;
	private thinking: ThinkingLevel | undefined;

	constructor(context: SessionContext) {
		this.reset(context);
	}

	/** Takes what an opened or resumed file recorded last. */
	reset(context: SessionContext): void {
		this.model = context.model && `${context.model.provider}/${context.model.modelId}`;
		this.thinking = context.thinkingLevel;
	}

	hasModel(provider: string, modelId: string): boolean {
		return this.model === `${provider}/${modelId}`;
	}

	/** Appends model_change / thinking_change entries for what changed (a model only once it is usable). Throws on a write failure. */
	write(store: SessionStore, current: { provider: string; modelId: string; usable: boolean; thinking: ThinkingLevel }): void {
		const model = `${current.provider}/${current.modelId}`;
		if (current.usable && this.model !== model) {
			store.append({ type: "model_change", provider: current.provider, modelId: current.modelId });
			this.model = model;
		}
		if (this.thinking !== current.thinking) {
			store.append({ type: "thinking_change", thinkingLevel: current.thinking });
			this.thinking = current.thinking;
		}
	}
}
