// A SessionUi that answers from a script, for tests of commands that ask: each select picks the first choice whose
// label matches the next answer, each confirm takes the next yes/no. Every question and notice is recorded.
import type { SelectOptions, SessionUi, UiChoice } from "../../src/core/session/index.js";

export interface Asked {
	kind: "select" | "confirm";
	title: string;
	/** The choices' labels (select) or the message (confirm). */
	shown: string[];
	body?: string[];
}

export class ScriptedUi implements SessionUi {
	readonly interactive = true;
	readonly asked: Asked[] = [];
	readonly notices: { level: string; text: string }[] = [];
	private readonly selects: (string | RegExp | undefined)[] = [];
	private readonly confirms: boolean[] = [];

	/** The next select picks the choice whose label contains (or matches) this; undefined dismisses it. */
	choose(...answers: (string | RegExp | undefined)[]): this {
		this.selects.push(...answers);
		return this;
	}

	answer(...answers: boolean[]): this {
		this.confirms.push(...answers);
		return this;
	}

	notify(level: string, text: string): void {
		this.notices.push({ level, text });
	}

	async select<T>(options: SelectOptions, choices: readonly UiChoice<T>[]): Promise<T | undefined> {
		this.asked.push({
			kind: "select",
			title: options.title,
			shown: choices.map((choice) => choice.label + (choice.description ? ` — ${choice.description}` : "")),
			body: options.body?.map((line) => line.text),
		});
		if (this.selects.length === 0) throw new Error(`Unexpected question: ${options.title}`);
		const answer = this.selects.shift();
		if (answer === undefined) return undefined;
		const chosen = choices.find((choice) => (typeof answer === "string" ? choice.label.includes(answer) : answer.test(choice.label)));
		if (!chosen) throw new Error(`No choice matches ${answer} in: ${choices.map((choice) => choice.label).join(" | ")}`);
		return chosen.value;
	}

	async confirm(title: string, message?: string): Promise<boolean> {
		this.asked.push({ kind: "confirm", title, shown: message ? [message] : [] });
		if (this.confirms.length === 0) throw new Error(`Unexpected confirmation: ${title}`);
		return this.confirms.shift()!;
	}

	async input(): Promise<string | undefined> {
		return undefined;
	}
}
