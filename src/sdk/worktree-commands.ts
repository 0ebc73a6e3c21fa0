// The user's side of loom's branches (a subagent's work with isolation: worktree, a `loom --worktree` session):
// /worktrees lists them with what each changed, /merge <branch> merges one into the current branch, /discard
// <branch> deletes one.
import type { AgentSession } from "../core/index.js";
import { discardBranch, loomBranches, mergeBranch } from "../plugs/index.js";

export function installWorktreeCommands(session: AgentSession): void {
	session.commands.register({
		name: "worktrees",
		description: "list loom's branches (subagents' work in worktrees) and what each changed",
		source: "builtin",
		async handler(_args, ctx) {
			const branches = await loomBranches(session.cwd);
			if (branches.length === 0) return ctx.notify("info", "No loom branches: a subagent with isolation: worktree leaves its work on one.");
			ctx.notify("info", [...branches.map((entry) => `${entry.branch}  ${entry.diffStat}`), "/merge <branch> merges one, /discard <branch> deletes one."].join("\n"));
		},
	});
	session.commands.register({
		name: "merge",
		argsHint: "<branch>",
		description: "merge a loom branch (a subagent's work) into the current branch",
		source: "builtin",
		async handler(args, ctx) {
			if (args === "") throw new Error("Usage: /merge <branch> (see /worktrees).");
			if (ctx.busy) throw new Error("Wait for the run to end before merging: its tools work in this tree.");
			await mergeBranch(session.cwd, args);
			ctx.notify("info", `Merged ${args}.`);
		},
	});
	session.commands.register({
		name: "discard",
		argsHint: "<branch>",
		description: "delete a loom branch and the work on it",
		source: "builtin",
		async handler(args, ctx) {
			if (args === "") throw new Error("Usage: /discard <branch> (see /worktrees).");
			if (ctx.ui?.interactive && !(await ctx.ui.confirm(`Delete ${args} and its work?`))) return;
			await discardBranch(session.cwd, args);
			ctx.notify("info", `Deleted ${args}.`);
		},
	});
}
