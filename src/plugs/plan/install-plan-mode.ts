// Plan mode: the approval policy's "plan" mode refuses every tool that may change something (bash included); this
// plug adds what makes it planning: while the mode holds, the system prompt says so and present_plan is enabled;
// /plan enters the mode (and, given a task, starts planning it).
import type { AgentSession, ApprovalMode, CommandDefinition, ToolDefinition } from "../../core/index.js";
import { createPresentPlanTool } from "./present-plan-tool.js";
import { type ModeSwitch, planReview } from "./plan-review.js";

/** The approval policy's side: its mode now, and how to switch it. */
export interface PlanModeControl extends ModeSwitch {
	readonly state: { readonly mode: ApprovalMode };
}

/** Where the mode's tool is enabled: a group of the session's tools that the options' tool choice does not filter. */
export interface PlanToolSet {
	group(owner: string, options: { always: boolean }): { set(tools: readonly ToolDefinition<any>[]): void };
}

export const PLAN_MODE_NOTE = `# Plan mode
You are in plan mode: you are planning the task, not doing it. Only tools that change nothing run (read, and grep, find and ls when enabled); bash, edit and write are refused until the user approves a plan. Explore what the task needs, then call present_plan with your plan in Markdown: the goal, what you will change where and why, numbered steps (a short line each: they become your todo list), and how you will check the result. Do not ask for approval in text: present_plan asks the user. If the user asks you to keep planning, revise the plan and present it again.`;

export function installPlanMode(session: AgentSession, options: { control: PlanModeControl; tools: PlanToolSet }): () => void {
	const { control } = options;
	const tool = createPresentPlanTool(planReview(session, control));
	const group = options.tools.group("plan mode", { always: true });
	let planning: boolean | undefined;
	const apply = (mode: ApprovalMode) => {
		if ((mode === "plan") === planning) return;
		planning = mode === "plan";
		group.set(planning ? [tool] : []);
		session.setPromptParts({ modeNote: planning ? PLAN_MODE_NOTE : undefined });
	};
	apply(control.state.mode);
	const stop = session.subscribe((event) => void (event.type === "approval_mode_changed" && apply(event.mode)), { open: false });
	const unregister = session.commands.register(planCommand(session, control));
	return () => {
		stop();
		unregister();
		group.set([]);
	};
}

function planCommand(session: AgentSession, control: PlanModeControl): CommandDefinition<unknown> {
	return {
		name: "plan",
		argsHint: "[task]",
		description: "plan mode: the agent only reads, then presents a plan for you to approve (with a task: start planning it)",
		source: "builtin",
		async handler(args, ctx) {
			if (control.state.mode !== "plan") {
				try {
					await control.setMode("plan");
				} catch (error) {
					ctx.notify("error", (error as Error).message);
					return;
				}
				ctx.notify("info", "Plan mode: the agent reads and plans, then presents the plan for you to approve. Leave it with /approval or Shift+Tab.");
			} else if (args === "") ctx.notify("info", "Already in plan mode. Leave it with /approval or Shift+Tab.");
			if (args !== "") session.followUp(args);
		},
	};
}
