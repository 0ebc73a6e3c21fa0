// Puts the approval policy on a session: a link in its before-chain deciding each call (asking the user when
// the mode says so), a link in its after-chain masking secrets in results, the same mask as the session's
// maskSecrets (for text that joins a prompt from elsewhere), and the /approval command.
import { homedir } from "node:os";
import { resolve } from "node:path";
import {
	repositoryTop,
	loadProjectSettings,
	projectSettingsPath,
	type Settings,
	settingsWarnings,
	findTool,
	type ToolDefinition,
	type SecretMask,
} from "../../core/index.js";
import type { BeforeLink, AgentSession, ApprovalHint, ApprovalOutcome, ApprovalMode } from "../../core/index.js";
import { approvalCommand, type ApprovalControl } from "./approval-command.js";
import { askApproval } from "./approval-question.js";
import { trustWebCommand } from "./trust-web-command.js";
import { gatherFacts, type PolicyContext, realPath } from "./call-facts.js";
import { decide, type PolicyState, type Verdict } from "./decide.js";
import { floorRefusal, policyConfig, type PolicySources } from "./policy-config.js";
import { exactRules, parseRule } from "./rules.js";
import { maskResult } from "./secrets.js";

export interface ApprovalPolicyOptions {
	/** --approval, --allow, --deny. */
	flags?: PolicySources["flags"];
	/** The user's settings, and the file they came from (named in messages). */
	settings: Settings;
	settingsFile: string;
	/** What secrets tool results lose. */
	secrets: SecretMask;
	/** The folder `~` means; default the user's home. */
	home?: string;
}

export interface ApprovalPolicy extends ApprovalControl {
	/** Takes the links and the command off the session. */
	uninstall(): void;
}

/** Reads the project's .loom/settings.json too (only what tightens is taken); throws a RuleError for a bad rule or guard name. */
export function installApprovalPolicy(session: AgentSession, options: ApprovalPolicyOptions): ApprovalPolicy {
	const home = options.home ?? homedir();
	const cwd = session.cwd;
	const projectSettings = loadProjectSettings(cwd);
	const config = policyConfig({
		flags: options.flags ?? {},
		user: { settings: options.settings, file: options.settingsFile },
		project: { settings: projectSettings, file: projectSettingsPath(cwd) },
		home,
	});
	// Said when loom starts, like other problems met assembling the session.
	for (const note of [...settingsWarnings(projectSettings), ...config.ignored]) session.addLoadWarning(note);
	const repoRoot = repositoryTop(resolve(cwd));
	const workTree = repoRoot ?? cwd;
	const ctx: PolicyContext = { cwd, home, repoRoot, workTree, realWorkTree: realPath(workTree) };
	const state: PolicyState = { mode: config.mode, allow: config.allow, deny: config.deny, grants: [], disabledGuards: config.disabledGuards };

	const report = (toolCallId: string, toolName: string, outcome: ApprovalOutcome, rules?: string[]) =>
		session.reportApproval({ type: "tool_approval_resolved", toolCallId, toolName, outcome, ...(rules ? { rules } : {}) });

	const before: BeforeLink = async ({ toolCall, args, context }, signal) => {
		const tool = findTool(context.tools, toolCall.name) as ToolDefinition | undefined;
		const facts = await gatherFacts(tool, toolCall.name, args, ctx);
		const ui = session.ui;
		const verdict = withHint(decide(facts, { ...state, taint: session.taint }, ctx, ui.interactive), session.hooks.takeApprovalHint(toolCall.id), ui.interactive);
		if (verdict.kind === "allow") return undefined;
		if (verdict.kind === "block") {
			if (verdict.cause === "unanswered") await report(toolCall.id, toolCall.name, "unanswered", exactRules(facts, ctx));
			return { block: true, reason: verdict.reason };
		}
		await session.reportApproval({ type: "tool_approval_requested", toolCallId: toolCall.id, toolName: toolCall.name });
		const answer = await askApproval(ui, { toolCallId: toolCall.id, tool, args, facts, note: verdict.note }, ctx, signal);
		switch (answer.kind) {
			case "once":
				await report(toolCall.id, toolCall.name, "allowed");
				return undefined;
			case "session":
				state.grants = [...state.grants, ...answer.rules.map((rule) => parseRule(rule, "allowed for this session", home))];
				await report(toolCall.id, toolCall.name, "allowed-for-session", answer.rules);
				return undefined;
			case "deny":
				await report(toolCall.id, toolCall.name, "denied");
				return {
					block: true,
					reason: answer.reason
						? `The user denied this ${toolCall.name} call and said: ${answer.reason}`
						: `The user denied this ${toolCall.name} call. Do not retry it unchanged; take another way or ask the user.`,
				};
			case "dismissed":
				// Esc on the question stops the whole run; a run stopped otherwise is already stopping.
				if (!signal?.aborted) void session.abort().catch(() => {});
				await report(toolCall.id, toolCall.name, "interrupted");
				return { block: true, reason: "The user stopped the run instead of answering whether this call may run." };
		}
	};

	const control: ApprovalPolicy = {
		state,
		ignored: config.ignored,
		floor: config.floor,
		async setMode(mode: ApprovalMode) {
			const refused = floorRefusal(config.floor, mode);
			if (refused) throw new Error(refused);
			state.mode = mode;
			await session.reportApproval({ type: "approval_mode_changed", mode });
		},
		uninstall() {
			removers.forEach((remove) => remove());
			session.setSecretMask(undefined);
		},
	};
	session.setSecretMask(options.secrets.mask);
	const removers = [
		session.hooks.before.add(before, { stage: "policy", name: "approval" }),
		// Final: what extensions' after-links return is masked too.
		session.hooks.after.add(({ result }) => maskResult(result, options.secrets), { stage: "final", name: "secrets" }),
		session.commands.register(approvalCommand(control)),
		session.commands.register(trustWebCommand(session)),
	];
	void control.setMode(state.mode);
	return control;
}

/**
 * The verdict as a settings hook's permission decision changes it: "allow" answers the question the mode would ask
 * (also where nobody could answer it); "ask" asks about a call the mode or a rule would allow. What blocks for
 * another cause (a deny rule, a guard, read-only mode) still blocks.
 */
function withHint(verdict: Verdict, hint: ApprovalHint | undefined, canAsk: boolean): Verdict {
	if (hint === "allow" && (verdict.kind === "ask" || (verdict.kind === "block" && verdict.cause === "unanswered"))) return { kind: "allow" };
	if (hint === "ask" && verdict.kind === "allow") {
		if (canAsk) return { kind: "ask" };
		return {
			kind: "block",
			cause: "unanswered",
			reason: "Not run: a PreToolUse hook asked for the user's approval of this call, and nobody can answer here (print mode). Carry on without it, or tell the user.",
		};
	}
	return verdict;
}
