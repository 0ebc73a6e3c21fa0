// The approval decision: pure, from what a call does (CallFacts), the policy's state and where the session
// works. Order: a call that cannot be read, deny rules, guards, tools that change nothing, then the mode.
import type { ApprovalMode } from "../../core/index.js";
import type { CallFacts, PolicyContext } from "./call-facts.js";
import { type GuardName, guardFinding } from "./guards.js";
import { allowedByRules, denyingRule, exactRules, type Rule, ruleCovers } from "./rules.js";
import { taintBrake } from "./taint-brake.js";

export interface PolicyState {
	mode: ApprovalMode;
	allow: readonly Rule[];
	deny: readonly Rule[];
	/** What the user allowed for this session while asked. */
	grants: readonly Rule[];
	disabledGuards: ReadonlySet<GuardName>;
	/** The conversation holds text from the web or another untrusted source (see taint-brake.ts): auto mode brakes. */
	taint?: string;
}

export type BlockCause = "unreadable" | "deny-rule" | "guard" | "read-only" | "plan" | "unanswered" | "tainted";

export type Verdict =
	| { kind: "allow" }
	/** The user must answer (ask mode, nothing allows the call yet; auto mode braked by taint: `note` says why). */
	| { kind: "ask"; note?: string }
	/** `reason` is what the model reads. */
	| { kind: "block"; cause: BlockCause; reason: string; guard?: GuardName };

/** `canAsk`: someone can answer a question (false in print mode, where a call that needs asking is refused). */
export function decide(call: CallFacts, state: PolicyState, ctx: PolicyContext, canAsk: boolean): Verdict {
	if (call.shellError !== undefined) {
		return block("unreadable", `The command was not run: ${call.shellError}, so loom could not check what it would do. Try again, or tell the user.`);
	}
	const denied = denyingRule(call, state.deny, ctx);
	if (denied?.subject.kind === "unread") {
		return block(
			"deny-rule",
			`Blocked: loom cannot tell before it runs what \`${denied.subject.what}\` would run (a command named by an expansion, code in a string or a variable, or something bash evaluates such as $((x)) or [[ -v … ]]), so it cannot check it against the rule ${denied.rule.text} (${denied.rule.source}). Write the commands out plainly, or ask the user.`,
		);
	}
	if (denied) {
		const what = denied.subject.kind === "command" ? `\`${denied.subject.text}\` is` : "this call is";
		return block(
			"deny-rule",
			`Blocked: ${what} denied by the rule ${denied.rule.text} (${denied.rule.source}). Do not try to get around the rule; do without it, or ask the user.`,
		);
	}
	const allow = [...state.allow, ...state.grants];
	const finding = guardFinding(call, { ...ctx, allows: (subject) => allow.some((rule) => ruleCovers(rule, subject, ctx, "allow")) }, state.disabledGuards);
	if (finding) return { kind: "block", cause: "guard", guard: finding.guard, reason: `Blocked by loom's ${finding.guard} guard: ${finding.reason}` };
	if (call.readOnly) return { kind: "allow" };
	switch (state.mode) {
		case "auto": {
			const brake = state.taint === undefined ? undefined : taintBrake(call, ctx);
			if (brake === undefined || allowedByRules(call, allow, ctx)) return { kind: "allow" };
			const note = `Text from ${state.taint} is in the conversation and ${brake}; loom asks before such calls until /trust-web.`;
			if (canAsk) return { kind: "ask", note };
			return block(
				"tainted",
				`Not run: ${note} Nobody can answer here (print mode). Carry on without it, or tell the user it can be allowed with ${exactRules(call, ctx)
					.map((rule) => `--allow '${rule}'`)
					.join(" ")}.`,
			);
		}
		case "read-only":
			return block(
				"read-only",
				`Blocked: this session is in read-only mode, so only tools that change nothing (such as read) run, and ${call.tool} may change things. Describe the change you would make instead; the user can switch modes with /approval ask or /approval auto.`,
			);
		case "plan":
			// bash included: the policy cannot prove a command changes nothing, so planning reads with the reading tools.
			return block(
				"plan",
				`Blocked: this session is in plan mode, so only tools that change nothing (such as read) run, and ${call.tool} may change things. Do not change anything yet: finish exploring, then present your plan with present_plan; the user approves it before anything is changed.`,
			);
		case "ask":
			if (allowedByRules(call, allow, ctx)) return { kind: "allow" };
			if (canAsk) return { kind: "ask" };
			return block(
				"unanswered",
				`Not run: in approval mode "ask" this ${call.tool} call needs the user's approval, and nobody can answer here (print mode). Carry on without it, or tell the user it can be allowed with ${exactRules(call, ctx)
					.map((rule) => `--allow '${rule}'`)
					.join(" ")}.`,
			);
	}
}

function block(cause: BlockCause, reason: string): Verdict {
	return { kind: "block", cause, reason };
}
