// A SessionUi that answers from a script, for tests of what asks: each select takes the next answer, each confirm
// the next yes/no, each input the next text. Every question and notice is recorded.
import type { SelectOptions, SessionUi, UiChoice } from "../../src/core/session/index.js";

export interface Asked {
	kind: "select" | "confirm";
	title: string;
	/** The choices' labels with their descriptions (select) or the message (confirm). */
	shown: string[];
	body?: string[];
	/** As the select got them; a confirm's title only, and no choices. */
	options: SelectOptions;
	choices: readonly UiChoice<unknown>[];
}

/**
 * The choice whose label contains (or matches) a string (or RegExp); the value a function picks from the choices;
 * undefined dismisses the question.
 */
export type SelectAnswer = string | RegExp | undefined | ((choices: readonly UiChoice<unknown>[]) => unknown);

export interface ScriptedUiOptions {
	/** Default true. */
	interactive?: boolean;
	/** Out of answers, a select or input is dismissed and a confirm answered no, instead of failing the test. */
	dismissWhenOut?: boolean;
}

export class ScriptedUi implements SessionUi {
	readonly interactive: boolean;
	readonly asked: Asked[] = [];
	readonly notices: { level: string; text: string }[] = [];
	private readonly dismissWhenOut: boolean;
	private readonly selects: SelectAnswer[] = [];
	private readonly confirms: boolean[] = [];
	private readonly inputs: (string | undefined)[] = [];

	constructor({ interactive = true, dismissWhenOut = false }: ScriptedUiOptions = {}) {
		this.interactive = interactive;
		this.dismissWhenOut = dismissWhenOut;
	}

	/** The titles of the questions asked, in order. */
	titles(): string[] {
		return this.asked.map((question) => question.title);
	}

	/** The notices as "level: text", in order. */
	noticeLines(): string[] {
		return this.notices.map(({ level, text }) => `${level}: ${text}`);
	}

	choose(...answers: SelectAnswer[]): this {
		this.selects.push(...answers);
		return this;
	}

	answer(...answers: boolean[]): this {
		this.confirms.push(...answers);
		return this;
	}

	/** The texts the next inputs get; undefined dismisses one. */
	type(...answers: (string | undefined)[]): this {
		this.inputs.push(...answers);
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
			options,
			choices,
		});
		if (this.selects.length === 0) {
			if (this.dismissWhenOut) return undefined;
			throw new Error(`Unexpected question: ${options.title}`);
		}
		const answer = this.selects.shift();
		if (answer === undefined) return undefined;
		if (typeof answer === "function") return answer(choices) as T | undefined;
		const chosen = choices.find((choice) => (typeof answer === "string" ? choice.label.includes(answer) : answer.test(choice.label)));
		if (!chosen) throw new Error(`No choice matches ${answer} in: ${choices.map((choice) => choice.label).join(" | ")}`);
		return chosen.value;
	}

	async confirm(title: string, message?: string): Promise<boolean> {
		this.asked.push({ kind: "confirm", title, shown: message ? [message] : [], options: { title }, choices: [] });
		if (this.confirms.length === 0) {
			if (this.dismissWhenOut) return false;
			throw new Error(`Unexpected confirmation: ${title}`);
		}
		return this.confirms.shift()!;
	}

	async input(): Promise<string | undefined> {
		return this.inputs.shift();
	}
}
