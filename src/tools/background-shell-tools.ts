// bash_output and bash_kill: the model's hands on the background shells bash started (see background-shells.ts).
import { Type } from "@sinclair/typebox";
import { type ToolDefinition, rawString, tailLines } from "../core/index.js";
import { type BackgroundRead, type BackgroundShells, MAX_READ_WAIT_SECONDS } from "./background-shells.js";

const ID = Type.String({ description: "The background shell's id, as bash returned it (bg1, bg2, …)" });

const shellSchema = Type.Object({ id: ID });

const outputSchema = Type.Object({
	id: ID,
	wait: Type.Optional(
		Type.Number({ minimum: 0, maximum: MAX_READ_WAIT_SECONDS, description: "When nothing new was printed yet, wait this many seconds at most for output (or the shell's end)" }),
	),
});

export interface BackgroundShellToolDetails {
	id: string;
	status: "running" | "exited" | "killed";
	exitCode?: number | null;
}

/** The text the model reads for one read of a shell: a line saying where the shell is, then the new output. */
export function describeBackgroundRead(read: BackgroundRead, first = false): string {
	const { shell, outcome } = read;
	const where =
		shell.status === "running"
			? `Background shell ${shell.id} is running.`
			: shell.status === "killed"
				? `Background shell ${shell.id} was stopped.`
				: outcome?.signal
					? `Background shell ${shell.id} ended, killed by ${outcome.signal}.`
					: `Background shell ${shell.id} exited with code ${shell.exitCode}.`;
	const hint = first && shell.status === "running" ? ` Read what it prints next with bash_output, stop it with bash_kill (id "${shell.id}").` : "";
	const output = read.output === "" ? (first ? "(no output yet)" : "(no new output)") : read.output;
	return `${where}${hint}\n\n${output}`;
}

function detailsOf(read: BackgroundRead): BackgroundShellToolDetails {
	const { id, status, exitCode } = read.shell;
	return { id, status, ...(exitCode !== undefined ? { exitCode } : {}) };
}

const ROW_LINES = 5;

function rowStatus(details: unknown) {
	const status = rawString(details, "status");
	return status ? [{ text: status, style: status === "running" ? ("dim" as const) : ("ok" as const) }] : [];
}

export function createBashOutputTool(shells: BackgroundShells): ToolDefinition<typeof outputSchema, BackgroundShellToolDetails> {
	return {
		name: "bash_output",
		label: "Bash output",
		description:
			"Read what a background shell (started with bash and background: true) printed since the last read, and whether it still runs. Output is bounded like bash's: its last lines, the rest in a file whose path is given. wait (seconds, optional): when nothing new came yet, wait for it that long at most.",
		parameters: outputSchema,
		promptGuide: "read the new output of a background shell started with bash background: true",
		readOnly: true,
		summarizeArgs: (args) => rawString(args, "id") ?? "",
		resultLines: (row, max) => [...tailLines(row.resultText, Math.min(ROW_LINES, max - 1), "dim"), ...rowStatus(row.details)],
		async execute(_id, params, signal) {
			const read = await shells.read(params.id, params.wait ?? 0, signal);
			return { content: [{ type: "text", text: describeBackgroundRead(read) }], details: detailsOf(read) };
		},
	};
}

export function createBashKillTool(shells: BackgroundShells): ToolDefinition<typeof shellSchema, BackgroundShellToolDetails> {
	return {
		name: "bash_kill",
		label: "Bash kill",
		description: "Stop a background shell started with bash and background: true, with everything it started (its process group). Returns its last output.",
		parameters: shellSchema,
		promptGuide: "stop a background shell (and its children)",
		// It stops only what the model itself started in the background, and changes no file.
		readOnly: true,
		summarizeArgs: (args) => rawString(args, "id") ?? "",
		resultLines: (row, max) => [...tailLines(row.resultText, Math.min(ROW_LINES, max - 1), "dim"), ...rowStatus(row.details)],
		async execute(_id, params) {
			const read = await shells.kill(params.id);
			return { content: [{ type: "text", text: describeBackgroundRead(read) }], details: detailsOf(read) };
		},
	};
}
