// What happens when the model presents a plan: the user reads it and answers — implement it with every change
// running (auto), implement it asking for each change (ask), or keep planning with a note for the model. An
// approved plan becomes the todo list and a plan entry of the session file, and the run goes on implementing it.
// Where nobody can answer (print mode) the plan is only shown and the run ends.
import type { AgentSession, ApprovalMode, StyledLine, UiChoice } from "../../core/index.js";
import { errorMessage, stripControls } from "../../core/index.js";

/** What the call returns: the model reads `text`; `answer` is what the row shows; `terminate` ends the run. */
export interface ReviewOutcome {
	text: string;
	answer: string;
	terminate?: boolean;
}

export type PlanReview = (plan: string, steps: readonly string[], signal?: AbortSignal) => Promise<ReviewOutcome>;

/** The approval mode the session is switched to when the plan is approved. */
export interface ModeSwitch {
	setMode(mode: ApprovalMode): Promise<void>;
}

type Choice = "auto" | "ask" | "keep";

const CHOICES: readonly UiChoice<Choice>[] = [
	{ label: "Implement it (auto: changes run without asking)", value: "auto" },
	{ label: "Implement it, asking for each change", value: "ask" },
	{ label: "Keep planning, with a note for the agent", value: "keep" },
];

export function planReview(session: AgentSession, modes: ModeSwitch): PlanReview {
	return async (plan, steps, signal) => {
		const ui = session.ui;
		if (!ui.interactive) {
			return {
				text: "The plan was shown to the user; nobody can approve it here, so the run ends now. Do not change anything.",
				answer: "shown (nobody can approve it here)",
				terminate: true,
			};
		}
		const body: StyledLine[] = stripControls(plan, { keepTabs: false })
			.split("\n")
			.map((text) => ({ text, style: "plain" }));
		const choice = await ui.select({ title: "The agent's plan: implement it?", body, signal }, CHOICES);
		if (choice === undefined) {
			// Esc stops the run, as on an approval question; a run stopped otherwise is stopping already.
			if (!signal?.aborted) void session.abort().catch(() => {});
			return { text: "The user stopped the run instead of answering the plan.", answer: "stopped", terminate: true };
		}
		if (choice === "keep") {
			const note = (await ui.input("What should the plan change?", { placeholder: "a note for the agent (optional)", signal }))?.trim();
			return {
				text: `The user wants you to keep planning${note ? ` and said: ${note}` : "."} You are still in plan mode: revise the plan, then present it again with present_plan.`,
				answer: note ? `keep planning: ${note}` : "keep planning",
			};
		}
		try {
			await modes.setMode(choice);
		} catch (error) {
			return { text: `The plan was approved, but the approval mode could not change: ${errorMessage(error)} Tell the user.`, answer: "approved; mode unchanged" };
		}
		await session.setTodos(steps.map((text) => ({ text, status: "pending" as const })));
		await session.recordPlan(plan);
		const how = choice === "auto" ? "changes now run without asking" : "each change now waits for the user's approval";
		return {
			text: `The user approved the plan. Plan mode is over (approval mode ${choice}: ${how}). Implement the plan now, step by step; your todo list holds its ${steps.length} steps: mark each in_progress when you start it and done when it is finished, with todo_write.`,
			answer: `approved: implementing (${choice})`,
		};
	};
}
