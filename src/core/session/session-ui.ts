// What the session may ask of the person using it, whatever the interface: the screen draws a dialog, RPC and
// ACP send a request to the client, print mode cannot ask. Commands, extensions, approvals, trust and pickers
// all ask through this one port; each interface installs its own with `session.setUi()`.
import type { StyledLine } from "../engine/index.js";

/** How much a notice matters: information, a warning, an error. */
export type NoticeLevel = "info" | "warning" | "error";

export interface UiChoice<T> {
	label: string;
	value: T;
	/** A dimmed second part of the row (a date, a provider, a path). */
	description?: string;
}

/**
 * The tool call a question asks approval for. The approval policy marks its questions with it, so an interface
 * with its own way to ask (RPC's approval requests, ACP's permission requests) can recognise them.
 */
export interface ApprovalSubject {
	toolCallId: string;
	toolName: string;
}

/** The values of an approval question's choices: allow this call once, allow such calls for the session, deny. */
export type ApprovalChoice = "once" | "session" | "deny";

export interface SelectOptions {
	title: string;
	/** Shown above the choices: a command about to run, the diff an edit would make. */
	body?: readonly StyledLine[];
	/** The choice highlighted first. */
	initialIndex?: number;
	/** Typing filters the choices (pickers of many items: models, sessions, prompts). */
	filter?: boolean;
	/** Aborting closes the dialog; the answer is then undefined. */
	signal?: AbortSignal;
	/** Set on the approval question: its choices' values are ApprovalChoice. */
	approval?: ApprovalSubject;
}

export interface InputOptions {
	placeholder?: string;
	initial?: string;
	signal?: AbortSignal;
	/** Set when the text is the reason for denying this call (asked after the approval question's "deny"). */
	approval?: ApprovalSubject;
}

export interface SessionUi {
	/** False where nobody can answer (print mode): select, confirm and input then answer at once with nothing. */
	readonly interactive: boolean;
	notify(level: NoticeLevel, text: string): void;
	/** The chosen value, or undefined when dismissed (Esc), aborted or not interactive. */
	select<T>(options: SelectOptions, choices: readonly UiChoice<T>[]): Promise<T | undefined>;
	/** True only on an explicit yes. */
	confirm(title: string, message?: string, signal?: AbortSignal): Promise<boolean>;
	/** The text entered, or undefined when dismissed, aborted or not interactive. */
	input(title: string, options?: InputOptions): Promise<string | undefined>;
}

/** Where nobody can be asked: notices go to `notify` (print mode: stderr), questions get no answer. */
export function nonInteractiveUi(notify: (level: NoticeLevel, text: string) => void = () => {}): SessionUi {
	return {
		interactive: false,
		notify,
		select: async () => undefined,
		confirm: async () => false,
		input: async () => undefined,
	};
}

/** The session's current ui, and the questions waiting for one that can ask. */
export class UiSlot {
	private waiters: ((ui: SessionUi) => void)[] = [];

	constructor(private ui: SessionUi) {}

	get current(): SessionUi {
		return this.ui;
	}

	set(ui: SessionUi): void {
		this.ui = ui;
		if (!ui.interactive) return;
		const waiters = this.waiters;
		this.waiters = [];
		for (const resolve of waiters) resolve(ui);
	}

	/** The current ui if it can ask, else the first installed later that can. */
	whenInteractive(): Promise<SessionUi> {
		if (this.ui.interactive) return Promise.resolve(this.ui);
		return new Promise((resolve) => this.waiters.push(resolve));
	}
}
