// A tool definition: an AgentTool plus what the rest of loom needs to know about it: how the system prompt
// describes it, how a row shows its calls, which files a call touches. Every part is optional; a tool that says
// nothing (an extension or MCP tool) gets the generic fallbacks below: its name and compact JSON arguments, its
// text result. Every part reads raw data defensively and a part that throws falls back too: a tool's
// presentation must never break a row, a prompt or a compaction.
// A tool's name: what a name may be (the characters and length every provider accepts: letters, digits, `_` and
// `-`, at most 64), and how a pattern names tools (--tools, approval rules): `*` stands for any run of
// characters, everything else for itself, so `mcp__github__*` names every tool of that server.
import type { TSchema } from "@sinclair/typebox";
import { escapeRegex } from "../lib/index.js";
import type { AgentTool } from "./agent-types.js";

export type LineStyle = "plain" | "dim" | "added" | "removed" | "hunk" | "ok" | "error" | "warning";

/** One line under a tool row; the screen gives each style its colour. */
export interface StyledLine {
	text: string;
	style: LineStyle;
}

export type ToolRowStatus = "queued" | "preparing" | "waiting" | "running" | "done" | "error";

/**
 * What a row knows when it draws a call's lines. `args` are the model's raw, possibly partial arguments;
 * `details` is the tool's own raw details (read defensively: it may come from an old session file).
 */
export interface ToolRowState {
	status: ToolRowStatus;
	args?: unknown;
	/** Text of the latest live update. */
	progressText?: string;
	/** Text of the final result. */
	resultText?: string;
	details?: unknown;
}

/**
 * What a language server said about the files a call changed, kept in its result's details as `diagnostics` (by
 * the link that asked, whatever the tool): the new errors' lines, `path:line:col message [code]`.
 */
export interface ToolResultDiagnostics {
	count: number;
	lines: string[];
}

/** Paths as the call gave them (relative or absolute). */
export interface ToolFileEffects {
	reads: string[];
	changes: string[];
}

export interface ToolPresentation {
	/** A line or two for the system prompt's tool list (fallback: the first sentence of the description). */
	promptGuide?: string;
	/** Rules the system prompt adds while this tool is enabled; the same rule from two tools is said once. */
	promptRules?: readonly string[];
	/** One-line summary of raw arguments for a row (fallback: compact JSON of the arguments). */
	summarizeArgs?(args: unknown): string;
	/**
	 * Lines under a finished (done or error) row, at most `max`. Undefined: the generic lines (the result
	 * text's lines; for an error, its last lines in red).
	 */
	resultLines?(row: ToolRowState, max: number): StyledLine[] | undefined;
	/** Lines under a running row from its latest update, at most `max`. Undefined: the progress text's last line. */
	updateLines?(row: ToolRowState, max: number): StyledLine[] | undefined;
	/** Files a call reads or changes, from its arguments after prepareArguments (compaction's file lists). */
	fileEffects?(args: unknown): ToolFileEffects;
	/** Declares that the tool changes nothing (read, grep, find, ls). A tool that does not say so is treated as changing. */
	readOnly?: boolean;
	/**
	 * Declares that what a call returns was written by others (a web page, an untrusted MCP server): once such a
	 * result joins the conversation the session is marked as tainted and the approval policy brakes (see taint).
	 */
	untrustedOutput?: boolean;
	/**
	 * Declares that a call gives the model a file's text from its path (read): the system prompt lists the skills
	 * only while such a tool is enabled, since reading a skill's file is how it is used.
	 */
	readsFiles?: boolean;
	/** The shell command a call runs (bash), from its prepared arguments: approval rules and guards check each command in it. */
	shellCommand?(args: unknown): string | undefined;
	/**
	 * What a call would change, worked out without changing anything (the diff an edit or a write would make),
	 * shown when the user is asked to approve it. Undefined (or a throw): the question shows the call's summary.
	 */
	previewChange?(args: unknown, signal?: AbortSignal): Promise<StyledLine[] | undefined>;
}

export interface ToolDefinition<TParameters extends TSchema = TSchema, TDetails = any> extends AgentTool<TParameters, TDetails>, ToolPresentation {}

/** A tool's presentation under the name its calls carry: what a screen is handed. */
export interface NamedToolPresentation extends ToolPresentation {
	readonly name: string;
}

/** Lines a failed call shows at most (its output's last lines; the rest is in the model's result). */
const ERROR_LINES = 5;
/** Lines a finished call of a tool without its own lines shows at most. */
const RESULT_LINES = 3;
const NO_EFFECTS: ToolFileEffects = { reads: [], changes: [] };

export function findTool<T extends { readonly name: string }>(tools: readonly T[] | undefined, name: string): T | undefined {
	return tools?.find((tool) => tool.name === name);
}

/** What a row shows after the tool's name. */
export function toolSummary(tool: ToolPresentation | undefined, args: unknown): string {
	if (tool?.summarizeArgs) {
		const summary = attempt(() => tool.summarizeArgs!(args));
		if (typeof summary === "string") return summary;
	}
	return compactArgs(args);
}

/** Compact JSON of raw arguments on one line ("" for none, or for arguments that cannot be written as JSON). */
export function compactArgs(args: unknown): string {
	if (args === undefined || args === null) return "";
	return attempt(() => oneLine(typeof args === "string" ? args : JSON.stringify(args))) ?? "";
}

/** Lines under a row, at most `max`: the tool's own where it gives them, the generic ones otherwise. */
export function toolResultLines(tool: ToolPresentation | undefined, row: ToolRowState, max: number): StyledLine[] {
	if (max <= 0) return [];
	switch (row.status) {
		case "running":
			return ownLines(tool?.updateLines, row, max) ?? tailLines(row.progressText, 1, "dim");
		case "error":
			return ownLines(tool?.resultLines, row, max) ?? errorLines(row, Math.min(ERROR_LINES, max));
		case "done": {
			const diagnostics = diagnosticLines(row.details, max);
			const room = max - diagnostics.length;
			const own = room > 0 ? (ownLines(tool?.resultLines, row, room) ?? genericDoneLines(row, room)) : [];
			return [...diagnostics, ...own];
		}
		default:
			return [];
	}
}

/** Rows this many lines tall or more (an expanded row) list the new errors under their count. */
const DIAGNOSTICS_LISTED_FROM = 8;

/** "2 new errors" from a result's `diagnostics` (ToolResultDiagnostics), with their lines when the row has room. */
function diagnosticLines(details: unknown, max: number): StyledLine[] {
	const diagnostics = (details as { diagnostics?: unknown } | null | undefined)?.diagnostics as Partial<ToolResultDiagnostics> | undefined;
	if (!diagnostics || typeof diagnostics !== "object" || typeof diagnostics.count !== "number" || diagnostics.count <= 0) return [];
	const head: StyledLine = { text: `${diagnostics.count} new ${diagnostics.count === 1 ? "error" : "errors"}`, style: "error" };
	const lines = Array.isArray(diagnostics.lines) ? diagnostics.lines.filter((line): line is string => typeof line === "string") : [];
	if (max < DIAGNOSTICS_LISTED_FROM) return [head];
	return [head, ...lines.slice(0, Math.floor(max / 2) - 1).map((text) => ({ text: `  ${text}`, style: "error" as const }))];
}

/** A failed call's last `count` lines of text, in red; a failure without text still says it failed. */
export function errorLines(row: ToolRowState, count: number): StyledLine[] {
	const text = row.resultText && row.resultText.trim() !== "" ? row.resultText : "failed (no message)";
	return tailLines(text, count, "error");
}

function genericDoneLines(row: ToolRowState, max: number): StyledLine[] {
	const lines = (row.resultText ?? "")
		.replace(/\n+$/, "")
		.split("\n")
		.filter((line) => line !== "")
		.map((text) => ({ text, style: "dim" as const }));
	return capLines(lines, Math.min(RESULT_LINES, max));
}

function ownLines(draw: ToolPresentation["resultLines"], row: ToolRowState, max: number): StyledLine[] | undefined {
	if (!draw) return undefined;
	const lines = attempt(() => draw(row, max));
	return Array.isArray(lines) ? lines.slice(0, max) : undefined;
}

/** The line the system prompt's tool list gives a tool. */
export function toolPromptGuide(tool: Pick<ToolDefinition, "description" | "promptGuide">): string {
	return tool.promptGuide ?? firstSentence(tool.description);
}

function firstSentence(text: string): string {
	const line = text.trim().split("\n")[0] ?? "";
	const end = line.search(/\.(\s|$)/);
	return end === -1 ? line : line.slice(0, end);
}

/** Files a call of `tool` read or changed; none for a tool that does not say (or arguments it cannot read). */
export function toolFileEffects(tool: Pick<ToolDefinition, "fileEffects" | "prepareArguments"> | undefined, args: unknown): ToolFileEffects {
	if (!tool?.fileEffects) return NO_EFFECTS;
	const effects = attempt(() => tool.fileEffects!(tool.prepareArguments ? tool.prepareArguments(args) : args));
	return effects ? { reads: paths(effects.reads), changes: paths(effects.changes) } : NO_EFFECTS;
}

/** What one call does, read from one parse of its arguments: what a row, a question and a client show of it. */
export interface ToolCallDescription {
	/** The row's one-line summary of the raw arguments (toolSummary). */
	summary: string;
	/** Files it reads or changes (toolFileEffects). */
	files: ToolFileEffects;
	/** The shell command it runs, for a tool that runs one (bash). */
	shellCommand?: string;
}

/**
 * A call of `tool` described once: its arguments prepared (prepareArguments) a single time for the parts that read
 * prepared arguments, the summary from the raw ones. Never throws; a tool that says nothing gets the fallbacks.
 */
export function describeToolCall(tool: ToolPresentation | undefined, args: unknown): ToolCallDescription {
	const prepare = (tool as Partial<Pick<ToolDefinition, "prepareArguments">> | undefined)?.prepareArguments;
	const prepared = prepare ? (attempt(() => prepare(args)) ?? args) : args;
	const effects = tool?.fileEffects ? attempt(() => tool.fileEffects!(prepared)) : undefined;
	const command = tool?.shellCommand ? attempt(() => tool.shellCommand!(prepared)) : undefined;
	return {
		summary: toolSummary(tool, args),
		files: effects ? { reads: paths(effects.reads), changes: paths(effects.changes) } : NO_EFFECTS,
		...(typeof command === "string" ? { shellCommand: command } : {}),
	};
}

function paths(value: unknown): string[] {
	return Array.isArray(value) ? value.filter((path): path is string => typeof path === "string" && path !== "") : [];
}

function attempt<T>(fn: () => T): T | undefined {
	try {
		return fn();
	} catch {
		return undefined;
	}
}

// Building blocks for the lines a tool row shows: pure, so a tool's presentation is testable without a screen.

/** A row's argument summary is cut here; the row itself truncates to the terminal's width. */
const MAX_SUMMARY = 200;

/** Collapses whitespace so a multi-line value stays on one row, cut to `max` characters. */
export function oneLine(text: string, max = MAX_SUMMARY): string {
	const flat = text.replace(/\s+/g, " ").trim();
	return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The last `count` lines of a text, without a trailing empty line. */
export function lastLines(text: string, count: number): string[] {
	if (count <= 0 || text === "") return [];
	const lines = text.replace(/\n+$/, "").split("\n");
	return lines.slice(Math.max(0, lines.length - count));
}

/** The last `count` lines in one style: output grows at the bottom, so the newest lines are the telling ones. */
export function tailLines(text: string | undefined, count: number, style: LineStyle): StyledLine[] {
	if (!text || count <= 0) return [];
	return lastLines(text, count).map((line) => ({ text: line, style }));
}

/** At most `max` lines, the last one saying how many were left out. */
export function capLines(lines: StyledLine[], max: number): StyledLine[] {
	if (lines.length <= max) return lines;
	if (max <= 0) return [];
	const kept = lines.slice(0, max - 1);
	return [...kept, { text: `… ${lines.length - kept.length} more lines`, style: "dim" }];
}

/** The longest tool name every provider accepts. */
export const MAX_TOOL_NAME_LENGTH = 64;

/** How a valid name is described to whoever gave one that is not. */
export const TOOL_NAME_RULE = `letters, digits, _ or - (at most ${MAX_TOOL_NAME_LENGTH})`;

const VALID_NAME = new RegExp(`^[A-Za-z0-9_-]{1,${MAX_TOOL_NAME_LENGTH}}$`);

export function isValidToolName(name: string): boolean {
	return VALID_NAME.test(name);
}

/** `text` in the characters a tool name may hold: any other becomes `_` (the length is the caller's to fit). */
export function toolNameCharacters(text: string): string {
	return text.replace(/[^A-Za-z0-9_-]/g, "_");
}

export function toolNamePattern(pattern: string): RegExp {
	return new RegExp(`^${pattern.split("*").map(escapeRegex).join(".*")}$`);
}

export function matchesToolPattern(pattern: string, name: string): boolean {
	return pattern.includes("*") ? toolNamePattern(pattern).test(name) : pattern === name;
}
