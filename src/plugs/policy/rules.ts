// Approval rules: `bash`, `bash(git status*)`, `edit(src/**)`, `write(!.env)`, `mcp__github__*`.
// A rule names tools (`*` any characters) and optionally what a call does: for a shell tool each command of
// its line, for a file tool each file it reads or changes. A redirection `> file` in a shell line is a write
// of that file, so `write(…)` rules judge it. Deny rules judge what each command runs (wrappers, folders and
// variables looked through); allow rules the command as written, and only one whose name is written out.
// A file whose contents run later (.loom/, .mcp.json, .git/) is allowed only by a rule naming it exactly.
import { relative } from "node:path";
import { escapeRegex, runsLater, toolNamePattern } from "../../core/index.js";
import type { CallFacts, FileFact, PolicyContext } from "./call-facts.js";
import { claudeCodeRuleProblem, loomSpelling } from "./claude-code-rules.js";
import { commandRuns } from "./command-runs.js";
import { compilePathPattern, escapeGlob, matchesPath, type PathPattern } from "./path-glob.js";

/** The tool name a redirection's write is judged as. */
const REDIRECT_TOOL = "write";

export interface Rule {
	/** As written. */
	text: string;
	/** Where it came from, for messages: "--deny", a settings file, "this session". */
	source: string;
	tool: RegExp;
	pattern?: { negated: boolean; command: RegExp; path: PathPattern };
}

/** One thing a call does that a rule must cover. */
export type Subject =
	/** `text` as written (what allow rules match); `runs` each spelling of what runs (what deny rules match). */
	| { kind: "command"; tool: string; text: string; runs: readonly string[]; named: boolean }
	| { kind: "file"; tool: string; file: FileFact | undefined }
	| { kind: "call"; tool: string }
	/** Code the line runs that loom cannot read before it runs (`what`, as written): no pattern can say what it is. */
	| { kind: "unread"; tool: string; what: string };

/** A rule or a guard name that cannot be used; `source` says where it was written ("--allow", a settings file). */
export class RuleError extends Error {
	constructor(
		message: string,
		readonly source: string,
	) {
		super(message);
		this.name = "RuleError";
	}
}

const RULE = /^([^()\s]+)(?:\(([\s\S]*)\))?$/;
const TOOL_NAME = /^[A-Za-z0-9_.:*-]+$/;

export function parseRule(text: string, source: string, home: string): Rule {
	const trimmed = text.trim();
	const match = RULE.exec(trimmed);
	const spelling = match ? loomSpelling(match[1], match[2]) : undefined;
	if (spelling !== undefined) throw new RuleError(`Invalid rule "${text}" (${source}): ${claudeCodeRuleProblem(spelling)}`, source);
	const problem = !match ? "" : !TOOL_NAME.test(match[1]) ? "the tool name" : match[2]?.trim() === "" ? "an empty pattern" : undefined;
	if (!match || problem !== undefined) {
		throw new RuleError(
			`Invalid rule "${text}" (${source})${problem ? `: ${problem}` : ""}. Write a tool name, optionally followed by a pattern in parentheses: bash(npm test), bash(git status*), edit(src/**), write(!.env), mcp__github__*.`,
			source,
		);
	}
	const rule: Rule = { text: trimmed, source, tool: toolNamePattern(match[1]) };
	const spec = match[2]?.trim();
	if (spec !== undefined) {
		const negated = spec.startsWith("!");
		const body = negated ? spec.slice(1) : spec;
		rule.pattern = { negated, command: commandPattern(body), path: compilePathPattern(body, home) };
	}
	return rule;
}

/** `*` any text; a trailing ` *` also matches no more arguments (`git status *` matches `git status`); `\*` a star. */
function commandPattern(pattern: string): RegExp {
	const tail = pattern.endsWith(" *") && !pattern.endsWith("\\ *");
	const body = tail ? pattern.slice(0, -2) : pattern;
	const source = body
		.split(/(\\\*|\*)/)
		.map((part) => (part === "*" ? ".*" : part === "\\*" ? "\\*" : escapeRegex(part)))
		.join("");
	return new RegExp(`^${source}${tail ? "(?: .*)?" : ""}$`, "s");
}

/** What a call does, each part a rule must cover; a call that names no command and no file is one subject. */
function subjectsOf(call: CallFacts): Subject[] {
	const commands = (call.shell?.commands ?? []).map((command): Subject => ({ kind: "command", tool: call.tool, text: command.text, ...commandRuns(command) }));
	const unread = (what: string): Subject => ({ kind: "unread", tool: call.tool, what });
	const subjects: Subject[] = [
		...commands,
		...commands.flatMap((command) => (command.kind === "command" && !command.named ? [unread(command.text)] : [])),
		...(call.shell?.unread ?? []).map(unread),
		...(call.shell && !call.shell.complete ? [unread(call.command ?? "")] : []),
		...call.shellWrites.map((file): Subject => ({ kind: "file", tool: REDIRECT_TOOL, file })),
		...[...call.reads, ...call.changes].map((file): Subject => ({ kind: "file", tool: call.tool, file })),
	];
	return subjects.length > 0 ? subjects : [{ kind: "call", tool: call.tool }];
}

/**
 * Whether `rule` covers `subject`. A file is matched by the path the call gave and by where it really is
 * (links resolved): a deny rule needs one of them, an allow rule both, so a link cannot slip past either.
 * A file only known when the command runs matches no rule.
 */
export function ruleCovers(rule: Rule, subject: Subject, ctx: PolicyContext, verdict: "allow" | "deny"): boolean {
	if (!rule.tool.test(subject.tool)) return false;
	const pattern = rule.pattern;
	if (!pattern) return true;
	switch (subject.kind) {
		case "call":
			return false;
		case "unread":
			return verdict === "deny";
		case "command":
			if (verdict === "deny") return subject.runs.some((text) => pattern.command.test(text) !== pattern.negated);
			return subject.named && pattern.command.test(subject.text) !== pattern.negated;
		case "file": {
			const file = subject.file;
			if (!file) return false;
			const test = (path: string) => matchesPath(pattern.path, path, ctx.cwd) !== pattern.negated;
			if (verdict === "deny") return test(file.absolute) || test(file.real);
			// Named exactly by its path: `write(./.mcp.json)`, not `write(*.json)` or a bare name found anywhere.
			const exact = pattern.path.exact && pattern.path.anchor !== "name" && !pattern.negated;
			if (!exact && (runsLater(file.absolute) || runsLater(file.real))) return false;
			return test(file.absolute) && test(file.real);
		}
	}
}

/** The first deny rule covering any part of the call, with the part it covers. */
export function denyingRule(call: CallFacts, deny: readonly Rule[], ctx: PolicyContext): { rule: Rule; subject: Subject } | undefined {
	for (const subject of subjectsOf(call)) {
		const rule = deny.find((candidate) => ruleCovers(candidate, subject, ctx, "deny"));
		if (rule) return { rule, subject };
	}
	return undefined;
}

/** Every part of the call is covered by an allow rule, and the whole line could be read. */
export function allowedByRules(call: CallFacts, allow: readonly Rule[], ctx: PolicyContext): boolean {
	if (call.shellError !== undefined || (call.shell && !call.shell.complete)) return false;
	return subjectsOf(call).every((subject) => allow.some((rule) => ruleCovers(rule, subject, ctx, "allow")));
}

/** Rules allowing exactly what the call does (what print mode suggests passing to --allow). */
export function exactRules(call: CallFacts, ctx: PolicyContext): string[] {
	// Only a rule covering every call of the tool allows what loom cannot read.
	return unique(subjectsOf(call).map((subject) => (subject.kind === "unread" ? subject.tool : ruleFor(subject, ctx, escapeCommand))));
}

/**
 * Rules for "allow for this session": each command by its prefix (`npm test *`, `git status *`; a command
 * whose second word is an option or a path stays exact), each file exactly, a call without either by its tool.
 */
export function sessionRules(call: CallFacts, ctx: PolicyContext): string[] {
	return unique(subjectsOf(call).map((subject) => ruleFor(subject, ctx, commandPrefix)));
}

/** Undefined for a file only known when the command runs: no rule names it. */
function ruleFor(subject: Subject, ctx: PolicyContext, command: (text: string) => string): string | undefined {
	switch (subject.kind) {
		case "call":
			return subject.tool;
		case "unread":
			return undefined;
		case "command":
			return subject.named ? `${subject.tool}(${command(subject.text)})` : undefined;
		case "file":
			return subject.file && `${subject.tool}(${escapeGlob(shownPath(subject.file, ctx))})`;
	}
}

/** A path as a rule names it: relative to the working directory inside it (`./` when it has no slash), else absolute. */
function shownPath(file: FileFact, ctx: PolicyContext): string {
	const inside = relative(ctx.cwd, file.absolute);
	if (inside === "" || inside.startsWith("..") || inside.startsWith("/")) return file.absolute;
	return inside.includes("/") ? inside : `./${inside}`;
}

const SUBCOMMAND = /^[A-Za-z][\w:-]*$/;

function commandPrefix(text: string): string {
	const words = text.split(" ");
	if (words.length === 1) return words[0].includes("=") ? escapeCommand(text) : `${escapeCommand(words[0])} *`;
	if (SUBCOMMAND.test(words[1]) && !words[0].includes("=")) return `${escapeCommand(`${words[0]} ${words[1]}`)} *`;
	return escapeCommand(text);
}

function escapeCommand(text: string): string {
	return text.replace(/\*/g, "\\*");
}

function unique(items: (string | undefined)[]): string[] {
	return [...new Set(items.filter((item): item is string => item !== undefined))];
}
