// /approval: shows the approval mode and what shapes it, or switches the mode (the screen's Shift+Tab runs it too).
import type { CommandDefinition } from "../core/session/command-registry.js";
import { APPROVAL_MODES, type ApprovalMode } from "../core/session/approval-mode.js";
import type { PolicyState } from "./decide.js";

export const MODE_MEANINGS: Readonly<Record<ApprovalMode, string>> = {
	auto: "everything runs, except what a guard or a deny rule blocks",
	ask: "reading runs freely; each command and file change waits for your answer",
	"read-only": "only tools that change nothing run",
};

export interface ApprovalControl {
	readonly state: PolicyState;
	/** What the project's settings asked for and did not get. */
	readonly ignored: readonly string[];
	setMode(mode: ApprovalMode): Promise<void>;
}

export function approvalCommand(control: ApprovalControl): CommandDefinition<unknown> {
	return {
		name: "approval",
		argsHint: `[${APPROVAL_MODES.join("|")}]`,
		description: "how much the agent may do without asking (without a mode: the mode, rules and guards)",
		source: "builtin",
		async handler(args, ctx) {
			if (args === "") {
				ctx.notify("info", statusText(control));
				return;
			}
			const mode = args.toLowerCase() as ApprovalMode;
			if (!APPROVAL_MODES.includes(mode)) {
				ctx.notify("error", `Unknown approval mode "${args}". Use one of: ${APPROVAL_MODES.join(", ")}.`);
				return;
			}
			await control.setMode(mode);
			ctx.notify("info", `Approval mode: ${mode} (${MODE_MEANINGS[mode]}).`);
		},
	};
}

function statusText({ state, ignored }: ApprovalControl): string {
	const list = (rules: readonly { text: string }[]) => (rules.length === 0 ? "none" : rules.map((rule) => rule.text).join(", "));
	const lines = [
		`Approval mode: ${state.mode} (${MODE_MEANINGS[state.mode]}). Switch with /approval <${APPROVAL_MODES.join("|")}>.`,
		`Allow rules: ${list(state.allow)}`,
		`Allowed for this session: ${list(state.grants)}`,
		`Deny rules: ${list(state.deny)}`,
		`Guards turned off: ${state.disabledGuards.size === 0 ? "none" : [...state.disabledGuards].join(", ")}`,
		...ignored,
	];
	return lines.join("\n");
}
