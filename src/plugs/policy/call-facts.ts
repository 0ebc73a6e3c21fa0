// What the policy knows about one tool call before deciding: gathered here (the shell line parsed, paths
// resolved on disk), then judged by the pure decide(). The only part of the decision that touches the disk.
import { readlinkSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { expandHome, runsLater, type ToolDefinition, toolFileEffects } from "../../core/index.js";
import { effectiveWords } from "./command-wrappers.js";
import { commandName, FILE_WRITERS, fileWrites, type ShellLine } from "./shell-line.js";
import { parseShell } from "./shell-parse.js";

/** A file a call names. */
export interface FileFact {
	/** As the call gave it. */
	given: string;
	/** Resolved against the working directory, `~` expanded. */
	absolute: string;
	/** With symbolic links resolved (as far as the path exists): where a write would really land. */
	real: string;
}

export interface CallFacts {
	tool: string;
	/** The tool declares it changes nothing. Unknown tools change things. */
	readOnly: boolean;
	/** The command line the call runs (a shell tool), as given and as read. */
	command?: string;
	shell?: ShellLine;
	/** Why the command line could not be read: nothing can vouch for it. */
	shellError?: string;
	/**
	 * Files the line's redirections write (undefined where the target is only known when it runs), and the files
	 * that run later (runsLater) a file-writing command names: `cp x .git/hooks/pre-commit` writes
	 * one as surely as `> .git/hooks/pre-commit`.
	 */
	shellWrites: (FileFact | undefined)[];
	reads: FileFact[];
	changes: FileFact[];
}

/** Where the session works: what guards protect and what relative paths and patterns mean. */
export interface PolicyContext {
	cwd: string;
	home: string;
	/** The git repository's top folder holding cwd, if any. */
	repoRoot?: string;
	/** The folder the agent may change without a rule: the repository's top folder, else cwd. */
	workTree: string;
	/** The same with symbolic links resolved, which real paths of files are compared with. */
	realWorkTree: string;
}

/** Links followed at most through a chain of dangling links (a loop ends there). */
const MAX_LINKS = 16;

export async function gatherFacts(tool: ToolDefinition | undefined, toolName: string, args: unknown, ctx: PolicyContext): Promise<CallFacts> {
	const facts: CallFacts = { tool: toolName, readOnly: tool?.readOnly === true, shellWrites: [], reads: [], changes: [] };
	const command = attempt(() => tool?.shellCommand?.(args));
	if (typeof command === "string") {
		facts.command = command;
		try {
			facts.shell = await parseShell(command, ctx.home);
			facts.shellWrites = [
				...fileWrites(facts.shell).map((redirect) => (redirect.target.path === undefined ? undefined : fileFact(redirect.target.path, ctx))),
				...runLaterOperands(facts.shell, ctx),
			];
		} catch (error) {
			facts.shellError = (error as Error).message;
		}
	}
	const effects = toolFileEffects(tool, args);
	facts.reads = effects.reads.map((path) => fileFact(path, ctx));
	facts.changes = effects.changes.map((path) => fileFact(path, ctx));
	return facts;
}

function runLaterOperands(line: ShellLine, ctx: PolicyContext): FileFact[] {
	return line.commands.flatMap((command) => {
		const words = effectiveWords(command.words);
		if (!FILE_WRITERS.has(commandName(words) ?? "")) return [];
		return words.slice(1).flatMap((word) => {
			if (word.path === undefined || word.path === "" || word.path.startsWith("-")) return [];
			const file = fileFact(word.path, ctx);
			return runsLater(file.absolute, true) || runsLater(file.real, true) ? [file] : [];
		});
	});
}

function fileFact(given: string, ctx: Pick<PolicyContext, "cwd" | "home">): FileFact {
	const absolute = resolve(ctx.cwd, expandHome(given, ctx.home));
	return { given, absolute, real: realPath(absolute) };
}

/**
 * Where a write to `path` would really land: symbolic links resolved, a dangling link followed to its target,
 * and the missing rest of a new path appended to its deepest existing folder.
 */
export function realPath(path: string, depth = 0): string {
	try {
		return realpathSync.native(path);
	} catch {}
	if (depth < MAX_LINKS) {
		try {
			return realPath(resolve(dirname(path), readlinkSync(path)), depth + 1);
		} catch {}
	}
	const parent = dirname(path);
	return parent === path ? path : join(realPath(parent, depth), basename(path));
}

function attempt<T>(fn: () => T): T | undefined {
	try {
		return fn();
	} catch {
		return undefined;
	}
}
