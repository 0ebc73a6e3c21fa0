// present_plan: how the model ends plan mode. It carries the plan as Markdown (and optionally its steps); what the
// user answers comes back as the call's result (see plan-review.ts). The plan's steps become the todo list.
import { type Static, Type } from "@sinclair/typebox";
import type { AssistantMessage, ToolDefinition, ToolPresentation } from "../../core/index.js";
import { MAX_TODO_ITEMS, rawString } from "../../core/index.js";
import type { PlanReview } from "./plan-review.js";

export const PRESENT_PLAN_TOOL = "present_plan";

export const presentPlanSchema = Type.Object({
	plan: Type.String({ description: "The plan, in Markdown: the goal, what changes where and why, numbered steps, how to check the result" }),
	steps: Type.Optional(
		Type.Array(Type.String(), { description: "The plan's steps, a short line each, in order (default: the plan's numbered list); they become the todo list" }),
	),
});

export type PresentPlanInput = Static<typeof presentPlanSchema>;

const description = `Present your plan to the user, in plan mode, once you have explored enough to plan the change. The user approves it (then you implement it, with the plan's steps as your todo list), or asks you to keep planning with a note. Call it alone, as the last call of your turn.`;

const presentation: ToolPresentation = {
	promptGuide: "present your finished plan (Markdown) for the user to approve",
	// It changes nothing itself: plan mode lets it run.
	readOnly: true,
	summarizeArgs: (args) => planSteps(rawString(args, "plan") ?? "", undefined).length + " steps",
	resultLines(row, max) {
		const plan = rawString(row.args, "plan");
		if (row.status !== "done" || plan === undefined) return undefined;
		const answer = (row.details as { answer?: string } | undefined)?.answer;
		const lines = plan.split("\n").map((text) => ({ text, style: "plain" as const }));
		const shown = lines.slice(0, Math.max(0, max - 1));
		return answer ? [...shown, { text: answer, style: "dim" }] : shown;
	},
};

export function createPresentPlanTool(review: PlanReview): ToolDefinition<typeof presentPlanSchema> {
	return {
		name: PRESENT_PLAN_TOOL,
		label: "Plan",
		description,
		parameters: presentPlanSchema,
		...presentation,
		async execute(_toolCallId, params, signal) {
			if (params.plan.trim() === "") throw new Error("The plan is empty: write the plan in Markdown in plan.");
			const outcome = await review(params.plan, planSteps(params.plan, params.steps), signal);
			return {
				content: [{ type: "text", text: outcome.text }],
				details: { answer: outcome.answer },
				...(outcome.terminate ? { terminate: true } : {}),
			};
		},
	};
}

/**
 * The plan's steps: those given, else the items of its first numbered list (else of its first bulleted list),
 * each without Markdown's list marks and checkboxes; at most MAX_TODO_ITEMS. A plan without a list is one step.
 */
export function planSteps(plan: string, given: readonly string[] | undefined): string[] {
	const clean = (text: string) => text.trim().replace(/^\[[ xX]\]\s*/, "").trim();
	const fromGiven = (given ?? []).map(clean).filter((text) => text !== "");
	if (fromGiven.length > 0) return fromGiven.slice(0, MAX_TODO_ITEMS);
	const lines = plan.split("\n");
	for (const marker of [/^ {0,3}\d+[.)]\s+(.*)$/, /^ {0,3}[-*+]\s+(.*)$/]) {
		const items = firstList(lines, marker).map(clean);
		if (items.length > 0) return items.filter((text) => text !== "").slice(0, MAX_TODO_ITEMS);
	}
	return ["Carry out the plan"];
}

/** The items of the first list whose items `marker` matches: it ends at a line that is not blank, indented, or an item. */
function firstList(lines: readonly string[], marker: RegExp): string[] {
	const items: string[] = [];
	for (const line of lines) {
		const match = marker.exec(line);
		if (match) items.push(match[1]!);
		else if (items.length > 0 && line.trim() !== "" && !/^\s/.test(line)) break;
	}
	return items;
}

/** The plan an assistant message presented (its present_plan call's), if it did: what print mode prints. */
export function presentedPlan(message: AssistantMessage | undefined): string | undefined {
	for (const part of message?.content ?? []) {
		if (part.type === "toolCall" && part.name === PRESENT_PLAN_TOOL) {
			const plan = rawString(part.arguments, "plan");
			if (plan !== undefined) return plan;
		}
	}
	return undefined;
}
