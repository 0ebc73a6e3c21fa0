// Asking the user whether one call may run, through the session's SessionUi: the command, or the diff an edit
// or write would make (worked out without writing), then allow once, allow for the session, or deny with a
// reason the model reads. Dismissing the question (Esc) is the user's way to stop the run.
import {
	type StyledLine,
	type ToolDefinition,
	toolSummary,
	capLines,
	showControls,
	stripControls,
} from "../../core/index.js";
import type { ApprovalChoice, ApprovalSubject, SessionUi, UiChoice } from "../../core/index.js";
import type { CallFacts, PolicyContext } from "./call-facts.js";
import { sessionRules } from "./rules.js";

export type Answer =
	| { kind: "once" }
	| { kind: "session"; rules: string[] }
	| { kind: "deny"; reason?: string }
	/** The question was dismissed (Esc) or the run was stopped while it was open. */
	| { kind: "dismissed" };

export interface Question {
	toolCallId: string;
	tool: ToolDefinition | undefined;
	args: unknown;
	facts: CallFacts;
	/** Why the question is asked when the mode alone would not ask (a tainted conversation). */
	note?: string;
}

/** Lines of a diff or command shown in the question at most; the dialog shows what fits. */
const MAX_BODY_LINES = 200;

export async function askApproval(ui: SessionUi, question: Question, ctx: PolicyContext, signal?: AbortSignal): Promise<Answer> {
	const { facts } = question;
	const rules = sessionRules(facts, ctx);
	const choices: UiChoice<ApprovalChoice>[] = [
		{ label: "Allow once", value: "once" },
		{ label: "Allow for this session", value: "session", description: rules.join(", ") },
		{ label: "Deny, and say why (optional)", value: "deny" },
	];
	const body = capLines(await questionBody(question, signal), MAX_BODY_LINES);
	if (question.note) body.unshift({ text: stripControls(question.note), style: "warning" });
	// Marked, so an interface with its own approval request (RPC, ACP) recognises the question.
	const approval: ApprovalSubject = { toolCallId: question.toolCallId, toolName: facts.tool };
	const choice = await ui.select({ title: questionTitle(question), body, signal, approval }, choices);
	switch (choice) {
		case "once":
			return { kind: "once" };
		case "session":
			return { kind: "session", rules };
		case "deny": {
			const reason = await ui.input("Why not? The model reads this (Enter to deny without a reason)", { placeholder: "reason", signal, approval });
			return { kind: "deny", reason: reason?.trim() || undefined };
		}
		default:
			return { kind: "dismissed" };
	}
}

function questionTitle({ facts, tool }: Question): string {
	if (facts.command !== undefined) return `Allow ${facts.tool} to run this command?`;
	const files = facts.changes.map((file) => file.given);
	if (files.length > 0) return `Allow ${facts.tool} to change ${files.map(showControls).join(", ")}?`;
	return `Allow ${tool ? "" : "the unknown tool "}${showControls(facts.tool)}?`;
}

/** The command as it will run (every line), the change a file tool would make, or the call's arguments. */
async function questionBody({ tool, args, facts }: Question, signal?: AbortSignal): Promise<StyledLine[]> {
	if (facts.command !== undefined) {
		const lines: StyledLine[] = facts.command.split("\n").map((line) => ({ text: showControls(line), style: "plain" }));
		if (facts.shell?.complete !== true) lines.push({ text: "loom could not read all of this command, so no rule can allow it.", style: "warning" });
		return lines;
	}
	if (tool?.previewChange) {
		try {
			const preview = await tool.previewChange(args, signal);
			if (preview) return preview.map((line) => ({ ...line, text: stripControls(line.text) }));
		} catch (error) {
			return [{ text: `This call would fail: ${showControls((error as Error).message)}`, style: "error" }];
		}
	}
	return [{ text: showControls(toolSummary(tool, args)), style: "plain" }];
}
