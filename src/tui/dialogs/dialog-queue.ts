// The screen's SessionUi: every question (select, confirm, input) becomes a dialog in a queue. The screen
// shows the first one in place of the editor; the others wait their turn, in the order they were asked.
// An aborted signal closes its dialog (open or waiting) with no answer. No React here: the screen
// subscribes to the queue and draws whichever dialog is current.
import type { NoticeLevel, InputOptions, SelectOptions, SessionUi, UiChoice } from "../../core/index.js";

export interface SelectDialog {
	kind: "select";
	/** Unique per dialog: the screen remounts the dialog (fresh filter and selection) when it changes. */
	id: number;
	options: SelectOptions;
	choices: readonly UiChoice<unknown>[];
	/** Closes the dialog with the chosen value, or undefined when dismissed. */
	finish(value: unknown): void;
}

export interface ConfirmDialog {
	kind: "confirm";
	id: number;
	title: string;
	message?: string;
	finish(yes: boolean): void;
}

export interface InputDialog {
	kind: "input";
	id: number;
	title: string;
	options: InputOptions;
	finish(text: string | undefined): void;
}

export type Dialog = SelectDialog | ConfirmDialog | InputDialog;

/** Closes a dialog with no answer (undefined; false for a confirmation). */
export function dismiss(dialog: Dialog): void {
	(dialog.finish as (value: undefined) => void)(undefined);
}

type DialogFields<D extends Dialog> = Omit<D, "id" | "finish">;

export class DialogQueue implements SessionUi {
	private readonly waiting: Dialog[] = [];
	private readonly listeners = new Set<() => void>();
	private nextId = 1;

	/**
	 * `notify` shows a notice on the screen. `interactive` is false when nobody can type (no terminal): then
	 * every question is answered at once with nothing, as in print mode.
	 */
	constructor(
		private readonly notifier: (level: NoticeLevel, text: string) => void,
		readonly interactive: boolean,
	) {}

	notify(level: NoticeLevel, text: string): void {
		this.notifier(level, text);
	}

	/** The dialog on screen, if any. Stable between changes (for useSyncExternalStore). */
	current = (): Dialog | undefined => this.waiting[0];

	/** Called whenever the current dialog changes; returns the function that unsubscribes. */
	subscribe = (listener: () => void): (() => void) => {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	};

	select<T>(options: SelectOptions, choices: readonly UiChoice<T>[]): Promise<T | undefined> {
		return this.open<SelectDialog, T | undefined>({ kind: "select", options, choices }, undefined, options.signal);
	}

	confirm(title: string, message?: string, signal?: AbortSignal): Promise<boolean> {
		return this.open<ConfirmDialog, boolean>({ kind: "confirm", title, message }, false, signal);
	}

	input(title: string, options: InputOptions = {}): Promise<string | undefined> {
		return this.open<InputDialog, string | undefined>({ kind: "input", title, options }, undefined, options.signal);
	}

	/** Closes every dialog, open or waiting, with no answer (the screen is going away). */
	closeAll(): void {
		for (const dialog of [...this.waiting]) dismiss(dialog);
	}

	private open<D extends Dialog, A>(fields: DialogFields<D>, none: A, signal: AbortSignal | undefined): Promise<A> {
		if (!this.interactive || signal?.aborted) return Promise.resolve(none);
		return new Promise<A>((resolve) => {
			let done = false;
			const finish = (answer: unknown) => {
				if (done) return;
				done = true;
				signal?.removeEventListener("abort", onAbort);
				const index = this.waiting.indexOf(dialog);
				if (index !== -1) this.waiting.splice(index, 1);
				resolve((answer === undefined ? none : answer) as A);
				if (index === 0) this.changed();
			};
			const onAbort = () => finish(undefined);
			const dialog = { ...fields, id: this.nextId++, finish } as unknown as Dialog;
			this.waiting.push(dialog);
			signal?.addEventListener("abort", onAbort, { once: true });
			if (this.waiting.length === 1) this.changed();
		});
	}

	private changed(): void {
		for (const listener of [...this.listeners]) listener();
	}
}
