// /approval: shows the approval mode and what shapes it, or switches the mode (the screen's Shift+Tab runs it too).
import type { CommandDefinition } from "../../core/index.js";
import { APPROVAL_MODE_TEXT, APPROVAL_MODES, type ApprovalMode } from "../../core/index.js";
import type { PolicyState } from "./decide.js";
import { allowedModes, type ApprovalFloor } from "./policy-config.js";

export interface ApprovalControl {
	readonly state: PolicyState;
	/** What the project's settings asked for and did not get. */
	readonly ignored: readonly string[];
	/** The project's mode, below which the session never goes. */
	readonly floor?: ApprovalFloor;
	/** Rejects a mode looser than the floor, saying why. */
	setMode(mode: ApprovalMode): Promise<void>;
}

export function approvalCommand(control: ApprovalControl): CommandDefinition<unknown> {
	return {
		name: "approval",
		argsHint: `[${APPROVAL_MODES.join("|")}|next]`,
		description: "how much the agent may do without asking (without a mode: the mode, rules and guards; next: as Shift+Tab)",
		source: "builtin",
		async handler(args, ctx) {
			if (args === "") {
				ctx.notify("info", statusText(control));
				return;
			}
			const choice = args.toLowerCase();
			const mode = choice === "next" ? nextMode(control) : (choice as ApprovalMode);
			if (mode === undefined) {
				ctx.notify("warning", `Approval stays ${control.state.mode}: ${control.floor?.file} keeps this project at "${control.state.mode}" for the whole session.`);
				return;
			}
			if (!APPROVAL_MODES.includes(mode)) {
				ctx.notify("error", `Unknown approval mode "${args}". Use one of: ${APPROVAL_MODES.join(", ")}.`);
				return;
			}
			try {
				await control.setMode(mode);
			} catch (error) {
				ctx.notify("error", (error as Error).message);
				return;
			}
			ctx.notify("info", `Approval mode: ${mode} (${APPROVAL_MODE_TEXT[mode].meaning}).`);
		},
	};
}

/** The mode after the current one among those allowed, round to the loosest; undefined when only one is. */
function nextMode({ state, floor }: ApprovalControl): ApprovalMode | undefined {
	const modes = allowedModes(floor);
	return modes.length === 1 ? undefined : modes[(modes.indexOf(state.mode) + 1) % modes.length];
}

function statusText({ state, ignored, floor }: ApprovalControl): string {
	const list = (rules: readonly { text: string }[]) => (rules.length === 0 ? "none" : rules.map((rule) => rule.text).join(", "));
	const modes = allowedModes(floor);
	const switching = modes.length === 1 ? `${floor?.file} allows nothing looser.` : `Switch with /approval <${modes.join("|")}>.`;
	const lines = [
		`Approval mode: ${state.mode} (${APPROVAL_MODE_TEXT[state.mode].meaning}). ${switching}`,
		`Allow rules: ${list(state.allow)}`,
		`Allowed for this session: ${list(state.grants)}`,
		`Deny rules: ${list(state.deny)}`,
		`Guards turned off: ${state.disabledGuards.size === 0 ? "none" : [...state.disabledGuards].join(", ")}`,
		...ignored,
	];
	return lines.join("\n");
}
