// `!command` in the editor: runs a shell command in the session's directory and shows its output, which is not
// sent to the model; `!!command` also adds the output to the next prompt. The output kept is bounded (its end,
// where errors and results are), and reaches the screen only through the transcript, stripped of escapes.
import { spawn } from "node:child_process";

/** Output kept at most, from the end; the rest is dropped with a note. */
export const SHELL_OUTPUT_LIMIT = 256 * 1024;
/** Output given to the model at most, from the end. */
export const SHELL_CONTEXT_LIMIT = 32 * 1024;

export interface ShellRequest {
	command: string;
	/** `!!`: the output goes with the next prompt. */
	forContext: boolean;
}

export interface ShellResult {
	output: string;
	/** Null when stopped by a signal. */
	exitCode: number | null;
}

/** "!ls" or "!!ls" at the start of the text; "!" alone is no command. */
export function parseShellCommand(text: string): ShellRequest | undefined {
	const match = /^(!!?)\s*([\s\S]*\S)\s*$/.exec(text.trimStart());
	if (!match) return undefined;
	return { command: match[2], forContext: match[1] === "!!" };
}

function keepTail(text: string, limit: number): string {
	if (text.length <= limit) return text;
	const cut = text.length - limit;
	const lineStart = text.indexOf("\n", cut);
	return `[… ${(lineStart === -1 ? cut : lineStart + 1).toLocaleString("en-US")} characters dropped]\n${text.slice(lineStart === -1 ? cut : lineStart + 1)}`;
}

/**
 * Runs `command` with the user's shell ($SHELL, else /bin/sh) in `cwd`, without input (it cannot read the
 * keyboard the screen is using), stdout and stderr together. Aborting kills it.
 */
export function runShellCommand(command: string, cwd: string, signal?: AbortSignal): Promise<ShellResult> {
	const shell = process.env.SHELL || "/bin/sh";
	return new Promise((resolve) => {
		let output = "";
		const child = spawn(shell, ["-c", command], { cwd, stdio: ["ignore", "pipe", "pipe"], detached: true });
		const add = (chunk: Buffer) => {
			output += chunk.toString("utf8");
			if (output.length > SHELL_OUTPUT_LIMIT * 2) output = keepTail(output, SHELL_OUTPUT_LIMIT);
		};
		child.stdout.on("data", add);
		child.stderr.on("data", add);
		// The whole process group: a pipeline's commands stop with it.
		const kill = () => {
			try {
				if (child.pid !== undefined) process.kill(-child.pid, "SIGTERM");
			} catch {}
		};
		signal?.addEventListener("abort", kill, { once: true });
		child.on("error", (error) => {
			signal?.removeEventListener("abort", kill);
			resolve({ output: `${output}${error.message}\n`, exitCode: 127 });
		});
		child.on("close", (code) => {
			signal?.removeEventListener("abort", kill);
			resolve({ output: keepTail(output, SHELL_OUTPUT_LIMIT), exitCode: code });
		});
	});
}

/** How `!!` output goes to the model: ahead of the prompt, saying what ran and how it ended. */
export function withShellContext(prompt: string, results: readonly (ShellRequest & ShellResult)[]): string {
	if (results.length === 0) return prompt;
	const blocks = results.map((result) => {
		const status = result.exitCode === null ? "stopped" : `exit code ${result.exitCode}`;
		return `The user ran \`${result.command}\` (${status}); its output:\n\`\`\`\n${keepTail(result.output, SHELL_CONTEXT_LIMIT).replace(/\n$/, "")}\n\`\`\``;
	});
	return `${blocks.join("\n\n")}\n\n${prompt}`;
}
