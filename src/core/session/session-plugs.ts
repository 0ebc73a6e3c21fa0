// What assemblies and interfaces plug into a session, beside its run: how it asks the user, the approval mode
// its policy reports, the secret mask, the runner of the user's own shell commands, file checkpoints, what a
// prompt waits for before its run, and the cleanups dispose() runs. AgentSession extends it. And who hears a
// session (SessionListeners): its listeners, in subscription order, each awaited before the next event; every
// event (the agent's and the session's own) after the ones before it. The session's own state is reduced from each
// event as it is emitted (reduceWith), and the events that yields are delivered just before it.
import type { ApprovalMode } from "../config/index.js";
import { OrderedDelivery, callInOrder } from "../engine/index.js";
import type { SessionListener } from "./agent-session-types.js";
import type { FileCheckpoints } from "./file-checkpoints.js";
import { type RunGate, RunGates } from "./run/index.js";
import type { ApprovalEvent, BackgroundShellSummary, SessionEvent, SubagentEvent } from "./session-events.js";
import { nonInteractiveUi, type SessionUi, UiSlot } from "./session-ui.js";
import type { UserCommandOptions, UserCommandResult, UserCommandRunner } from "./user-command.js";

export class SessionPlugs {
	/** One ordered delivery for the agent's events and the session's own. */
	protected readonly listeners = new SessionListeners();
	/** What a prompt waits for before its run starts; see addRunGate(). */
	protected readonly runGates = new RunGates();
	private readonly uiSlot = new UiSlot(nonInteractiveUi());
	/** Run by dispose(), newest first: what assemblies attached (extensions, servers, child processes). */
	private disposers: (() => void)[] = [];
	private checkpoints: FileCheckpoints | undefined;
	private shownApprovalMode: ApprovalMode | undefined;
	private secretMask: ((text: string) => string) | undefined;
	private shells: readonly BackgroundShellSummary[] = [];

	constructor(private readonly userCommands: UserCommandRunner | undefined) {}

	/** How the session asks the user (dialogs, notices); non-interactive until an interface installs its own. */
	get ui(): SessionUi {
		return this.uiSlot.current;
	}
	setUi(ui: SessionUi): void {
		this.uiSlot.set(ui);
	}
	/**
	 * The session's ui as soon as it can ask the user: now, or once an interface installs one that can. Pending
	 * for good where nobody will be asked (print mode); for questions that wait for an answer (project trust).
	 */
	whenInteractive(): Promise<SessionUi> {
		return this.uiSlot.whenInteractive();
	}

	/** The approval mode the installed policy enforces, for interfaces to show; undefined without a policy. */
	get approvalMode(): ApprovalMode | undefined {
		return this.shownApprovalMode;
	}

	/**
	 * For the approval policy installed on this session (which owns the mode and the answers): delivers its
	 * event to every listener, in order with the rest, and keeps the mode it reports for `approvalMode`.
	 */
	reportApproval(event: ApprovalEvent): Promise<void> {
		if (event.type === "approval_mode_changed") this.shownApprovalMode = event.mode;
		return this.listeners.emit(event);
	}

	/** For a child session's owner (the task tool): delivers the child's event to every listener, in order with the rest. */
	reportSubagent(event: SubagentEvent): Promise<void> {
		return this.listeners.emit(event);
	}

	/** The background shells the session's bash started (running and ended), as last reported. */
	get backgroundShells(): readonly BackgroundShellSummary[] {
		return this.shells;
	}

	/** For the registry of the session's background shells: delivers their list to every listener, in order with the rest. */
	reportBackgroundShells(shells: BackgroundShellSummary[]): Promise<void> {
		this.shells = shells;
		return this.listeners.emit({ type: "background_shells_changed", shells });
	}

	/**
	 * `text` with the secrets this session keeps from the model (API keys, secret-looking environment values)
	 * masked, for text from outside the tools that joins a prompt (the screen's `!!command` output). Unchanged
	 * until a policy installs a mask (setSecretMask); tool results are masked by the policy itself.
	 */
	maskSecrets(text: string): string {
		return this.secretMask ? this.secretMask(text) : text;
	}
	/** For the policy that owns the session's secrets; undefined takes the mask off. */
	setSecretMask(mask: ((text: string) => string) | undefined): void {
		this.secretMask = mask;
	}

	/**
	 * Runs a shell command the user typed (the screen's `!command`) in the session's directory, as the bash tool
	 * runs the model's: in a process group this session ends when disposed, output bounded and masked. Rejects
	 * when it cannot start (or when the session was assembled without a runner).
	 */
	runUserCommand(command: string, options: UserCommandOptions = {}): Promise<UserCommandResult> {
		if (!this.userCommands) return Promise.reject(new Error("This session cannot run shell commands."));
		return this.userCommands(command, options);
	}

	/** How the session restores files when it rewinds; undefined until something records checkpoints. */
	get fileCheckpoints(): FileCheckpoints | undefined {
		return this.checkpoints;
	}
	setFileCheckpoints(checkpoints: FileCheckpoints | undefined): void {
		this.checkpoints = checkpoints;
	}

	/**
	 * Adds a wait a prompt makes before its run starts, for tools still arriving (MCP servers starting): the run
	 * then starts with them. A gate bounds its own wait, and ends it when the signal aborts (the prompt was
	 * interrupted); a gate that fails is passed. Returns the function that removes the gate.
	 */
	addRunGate(gate: RunGate): () => void {
		return this.runGates.add(gate);
	}

	/**
	 * Runs `cleanup` when the session is disposed (an assembly's extensions, servers, the child processes of its
	 * tools); returns the function that forgets it.
	 */
	onDispose(cleanup: () => void): () => void {
		this.disposers = [cleanup, ...this.disposers];
		return () => {
			this.disposers = this.disposers.filter((other) => other !== cleanup);
		};
	}

	/** The cleanups given to onDispose(), newest first, each once. */
	protected runDisposers(): void {
		const disposers = this.disposers;
		this.disposers = [];
		for (const cleanup of disposers) {
			try {
				cleanup();
			} catch {
				// One failing cleanup must not keep the others (or the file) from being released.
			}
		}
	}
}

const DELIVERED: Promise<void> = Promise.resolve();

/** A session's listeners and the one ordered delivery of its events to them. */
export class SessionListeners {
	/** Replaced, never changed in place: a delivery in progress keeps the list it started with. */
	private listeners: readonly SessionListener[] = [];
	private readonly delivery = new OrderedDelivery<SessionEvent>((event) => callInOrder(this.listeners, (listener) => listener(event)));
	private reduce: ((event: SessionEvent) => readonly SessionEvent[]) | undefined;

	/** Sets what reduces the session's state from each event emitted; what it returns is delivered before the event. */
	reduceWith(reduce: (event: SessionEvent) => readonly SessionEvent[]): void {
		this.reduce = reduce;
	}

	/** Returns the function that removes this listener only. */
	add(listener: SessionListener): () => void {
		this.listeners = [...this.listeners, listener];
		return () => {
			const index = this.listeners.indexOf(listener);
			if (index >= 0) this.listeners = this.listeners.filter((_, i) => i !== index);
		};
	}

	clear(): void {
		this.listeners = [];
	}

	/** Delivers one event after the events before it; undefined when that happened synchronously (a stream's updates). */
	deliver(event: SessionEvent): Promise<void> | undefined {
		const preceding = this.reduce?.(event);
		if (!preceding || preceding.length === 0) return this.delivery.deliver(event);
		const pending: Promise<void>[] = [];
		for (const before of [...preceding, event]) {
			const delivered = this.delivery.deliver(before);
			if (delivered) pending.push(delivered);
		}
		return pending.length === 0 ? undefined : Promise.all(pending).then(() => {});
	}

	/** deliver(), always as a promise. */
	emit(event: SessionEvent): Promise<void> {
		return this.deliver(event) ?? DELIVERED;
	}
}
