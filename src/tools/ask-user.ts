// ask_user: the model asks the user one question with a few choices (and room for an answer of their own), through
// the session's ui: a picker on the screen, a select request over RPC, a permission request over ACP. Where nobody
// can answer (print mode, an embedder without a ui), the call fails with what the model should do instead.
import { type Static, Type } from "@sinclair/typebox";
import { type SessionUi, type ToolDefinition, type UiChoice, rawString } from "../core/index.js";

export const MIN_CHOICES = 2;
export const MAX_CHOICES = 6;

export const askUserSchema = Type.Object({
	question: Type.String({ description: "The question, complete in itself (the user sees nothing else)" }),
	choices: Type.Array(Type.String({ description: "A short answer the user can pick" }), {
		minItems: MIN_CHOICES,
		maxItems: MAX_CHOICES,
		description: `${MIN_CHOICES} to ${MAX_CHOICES} answers to choose from; the user may also type their own`,
	}),
});

export type AskUserInput = Static<typeof askUserSchema>;

export interface AskUserDetails {
	/** The answer: a choice's text or what the user typed. */
	answer: string;
	/** True when the user typed it instead of picking a choice. */
	typed: boolean;
}

/** What the model reads when nobody can be asked: documented in the README ("Asking the user"). */
export const NOBODY_TO_ASK =
	"Nobody can answer questions here: loom is running non-interactively (print mode, or without a user interface). Do not ask again: decide yourself, go on with the choice that fits the task best, and say in your final answer what you assumed and why.";

const DISMISSED =
	"The user closed the question without answering. Do not ask it again: go on with your best judgment, and say in your answer what you assumed.";

/** The value of the "answer of my own" row (a choice's value is its index). */
const OWN_ANSWER = -1;

export function createAskUserTool(ui: () => SessionUi): ToolDefinition<typeof askUserSchema, AskUserDetails> {
	return {
		name: "ask_user",
		label: "Question",
		description: `Ask the user one question when you must choose and the choice is theirs (which approach, which of several files, what they meant); not for things you can find out yourself. Give ${MIN_CHOICES} to ${MAX_CHOICES} short choices; the user may also type an answer of their own. Returns the answer. Where nobody can answer (non-interactive runs) it fails, and you decide yourself.`,
		parameters: askUserSchema,
		promptGuide: "ask the user one question with a few choices, when the decision is theirs",
		readOnly: true,
		// One question at a time: two dialogs racing each other would confuse the user.
		executionMode: "sequential",
		summarizeArgs: (args) => rawString(args, "question") ?? "",
		resultLines: (row) => {
			const answer = rawString(row.details, "answer");
			return row.status === "done" && answer !== undefined ? [{ text: `→ ${answer}`, style: "ok" }] : undefined;
		},
		async execute(_toolCallId, params, signal) {
			const question = params.question.trim();
			if (question === "") throw new Error("question must be a non-empty string.");
			const labels = params.choices.map((choice) => choice.trim()).filter((choice) => choice !== "");
			if (labels.length < MIN_CHOICES || labels.length > MAX_CHOICES) {
				throw new Error(`Give ${MIN_CHOICES} to ${MAX_CHOICES} non-empty choices (got ${labels.length}).`);
			}
			const asked = ui();
			if (!asked.interactive) throw new Error(NOBODY_TO_ASK);
			const choices: UiChoice<number>[] = [...labels.map((label, index) => ({ label, value: index })), { label: "Type my own answer…", value: OWN_ANSWER }];
			const body = question.split("\n").map((text) => ({ text, style: "plain" as const }));
			const picked = await asked.select({ title: "The agent asks", body, signal }, choices);
			let details: AskUserDetails | undefined;
			if (picked === OWN_ANSWER) {
				const typed = (await asked.input(question.split("\n")[0] ?? question, { placeholder: "your answer", signal }))?.trim();
				if (typed) details = { answer: typed, typed: true };
			} else if (picked !== undefined) {
				details = { answer: labels[picked] ?? "", typed: false };
			}
			if (signal?.aborted) throw new Error("The question was interrupted.");
			if (!details) throw new Error(DISMISSED);
			const text = details.typed ? `The user answered: ${details.answer}` : `The user chose: ${details.answer}`;
			return { content: [{ type: "text", text }], details };
		},
	};
}
