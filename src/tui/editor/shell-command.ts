// `!command` in the editor: the session runs a shell command in its directory (session.runUserCommand: bounded
// output, its process group ended on Esc and with loom) and the screen shows the output, which is not sent to the
// model; `!!command` also adds the output to the next prompt. The output reaches the screen only through the
// transcript, stripped of escapes.
import type { UserCommandResult } from "../../core/index.js";

/** Output given to the model at most, from the end. */
export const SHELL_CONTEXT_LIMIT = 32 * 1024;

export interface ShellRequest {
	command: string;
	/** `!!`: the output goes with the next prompt. */
	forContext: boolean;
}

export type ShellResult = UserCommandResult;

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

/** How `!!` output goes to the model: ahead of the prompt, saying what ran and how it ended. */
export function withShellContext(prompt: string, results: readonly (ShellRequest & ShellResult)[]): string {
	if (results.length === 0) return prompt;
	const blocks = results.map((result) => {
		const status = result.exitCode === null ? "interrupted" : `exit code ${result.exitCode}`;
		return `The user ran \`${result.command}\` (${status}); its output:\n\`\`\`\n${keepTail(result.output, SHELL_CONTEXT_LIMIT).replace(/\n$/, "")}\n\`\`\``;
	});
	return `${blocks.join("\n\n")}\n\n${prompt}`;
}
