// The session's background shells for the user: their registry reports to the session (the screen's footer counts
// them), and /bashes lists them with their status and stops the one the user picks (`/bashes kill bg1` directly).
import type { AgentSession, BackgroundShellSummary } from "../core/index.js";
import { oneLine } from "../core/index.js";
import { BackgroundShells } from "../tools/index.js";

/** The registry for a session's tools; `session` is read when a shell changes (the tools are made before it). */
export function backgroundShellsFor(session: () => AgentSession | undefined, redact: (text: string) => string): BackgroundShells {
	return new BackgroundShells({ redact, onChange: (shells) => void session()?.reportBackgroundShells(shells) });
}

function statusText(shell: BackgroundShellSummary): string {
	if (shell.status === "exited") return `exited ${shell.exitCode ?? "(signal)"}`;
	return shell.status;
}

/** Registers /bashes, and stops every shell when the session is disposed (its process groups die with it anyway). */
export function installBackgroundShells(session: AgentSession, shells: BackgroundShells): void {
	session.onDispose(() => shells.stopAll());
	session.commands.register({
		name: "bashes",
		argsHint: "[kill <id>]",
		description: "list the background shells the agent started, and stop one",
		source: "builtin",
		async handler(args, ctx) {
			const listed = shells.list();
			const kill = /^kill\s+(\S+)$/.exec(args);
			if (kill) {
				const read = await shells.kill(kill[1]!);
				return ctx.notify("info", `Stopped background shell ${read.shell.id}.`);
			}
			if (args !== "") throw new Error("Usage: /bashes, or /bashes kill <id>.");
			if (listed.length === 0) return ctx.notify("info", "No background shells: the agent starts them with bash and background: true.");
			const rows = listed.map((shell) => ({ label: `${shell.id}  ${statusText(shell)}`, value: shell.id, description: oneLine(shell.command) }));
			if (!ctx.ui?.interactive) return ctx.notify("info", rows.map((row) => `${row.label}  ${row.description}`).join("\n"));
			const picked = await ctx.ui.select({ title: "Background shells (enter: stop the one chosen, esc: close)" }, rows);
			if (picked === undefined) return;
			const shell = listed.find((other) => other.id === picked);
			if (shell?.status !== "running") return ctx.notify("info", `${picked} is not running (${shell ? statusText(shell) : "gone"}).`);
			if (!(await ctx.ui.confirm(`Stop ${picked}?`, oneLine(shell.command)))) return;
			await shells.kill(picked);
			ctx.notify("info", `Stopped background shell ${picked}.`);
		},
	});
}
