// How a loom tool call looks to an ACP client: its kind, title, files and the change it asks for when it starts,
// and its content when it ends (the text of its result, or the change an edit or a write made, as ACP diffs).
// Pure, from the tool's definition, the call's arguments and its result; used live and when a session is replayed.
import { isAbsolute, resolve } from "node:path";
import type { ContentBlock, ToolCall, ToolCallContent, ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";
import { parsePatch } from "diff";
import {
	type AgentToolResult,
	describeToolCall,
	type ImageContent,
	oneLine,
	rawField,
	rawNumber,
	rawString,
	type TextContent,
	type ToolCallDescription,
	type ToolDefinition,
} from "../../core/index.js";

/** What is known of a call when it starts; `before`: the text of the file a write replaces, read just before. */
export interface CallStart {
	toolCallId: string;
	toolName: string;
	args: unknown;
	/** Undefined for a tool the session does not know (a call of a tool no longer enabled). */
	tool: ToolDefinition | undefined;
	/** The session's description of the call (its state's); worked out from `tool` and `args` when not given (a replay). */
	description?: ToolCallDescription;
	before?: FileBefore;
}

/** What a call's end adds: its result. */
export interface CallEnd extends CallStart {
	result: { content: AgentToolResult<unknown>["content"]; details?: unknown };
	isError: boolean;
}

/** A file's text before a call, or undefined when the file did not exist. */
export interface FileBefore {
	path: string;
	text: string | undefined;
}

function describe(call: Omit<CallStart, "toolCallId">): ToolCallDescription {
	return call.description ?? describeToolCall(call.tool, call.args);
}

/** A call that runs a shell command (its definition says which) is a command, which editors show as such. */
function toolKind(call: Omit<CallStart, "toolCallId">): ToolKind {
	const { files, shellCommand } = describe(call);
	if (shellCommand !== undefined) return "execute";
	if (files.changes.length > 0) return "edit";
	if (call.tool?.readOnly) return files.reads.length > 0 ? "read" : "search";
	return "other";
}

/** "Read src/app.ts:1-20", "Edit src/app.ts"; a command is its own title. */
function toolTitle(call: Omit<CallStart, "toolCallId">): string {
	const summary = describe(call).summary;
	if (toolKind(call) === "execute") return oneLine(summary) || call.toolName;
	const label = call.tool?.label ?? call.toolName;
	return oneLine(summary === "" ? label : `${label} ${summary}`);
}

/** The files a call reads or changes, absolute, each once; a read's offset is its line. */
export function toolLocations(call: Omit<CallStart, "toolCallId">, cwd: string): ToolCallLocation[] {
	const effects = describe(call).files;
	const line = rawNumber(call.args, "offset");
	const paths = [...new Set([...effects.changes, ...effects.reads].map((path) => absolute(path, cwd)))];
	return paths.map((path) => (line !== undefined && effects.reads.length > 0 ? { path, line } : { path }));
}

/** The `tool_call` that announces a call (pending until it runs), with the change it asks for, to approve or not. */
export function toolCallStart(call: CallStart, cwd: string): ToolCall {
	const proposed = proposedDiffs(call, cwd);
	return {
		toolCallId: call.toolCallId,
		title: toolTitle(call),
		kind: toolKind(call),
		status: "pending",
		locations: toolLocations(call, cwd),
		...(proposed.length > 0 ? { content: proposed } : {}),
		rawInput: call.args,
	};
}

/** The one file a call changes, absolute; undefined for none or several. */
function changedFile(call: Omit<CallStart, "toolCallId">, cwd: string): string | undefined {
	const { changes } = describe(call).files;
	return changes.length === 1 ? absolute(changes[0]!, cwd) : undefined;
}

/** The file a call replaces whole with the `content` it carries (a write); its old text makes the diff. */
export function wholeFileTarget(call: Omit<CallStart, "toolCallId">, cwd: string): string | undefined {
	return rawString(preparedArgs(call), "content") === undefined ? undefined : changedFile(call, cwd);
}

/**
 * The change a call asks for, before it runs: a write's old and new text (the old one when it was read), an
 * edit's replacements as the model wrote them.
 */
function proposedDiffs(call: Omit<CallStart, "toolCallId">, cwd: string): ToolCallContent[] {
	const path = changedFile(call, cwd);
	if (path === undefined) return [];
	const args = preparedArgs(call);
	const newText = rawString(args, "content");
	if (newText !== undefined) return call.before?.path === path ? [{ type: "diff", path, oldText: call.before.text ?? null, newText }] : [];
	const edits = rawField(args, "edits");
	if (!Array.isArray(edits)) return [];
	return edits.flatMap((edit): ToolCallContent[] => {
		const oldText = rawString(edit, "oldText");
		const replacement = rawString(edit, "newText");
		return oldText !== undefined && replacement !== undefined ? [{ type: "diff", path, oldText, newText: replacement }] : [];
	});
}

/** The arguments as the tool reads them (its legacy shapes normalised), or as given when it cannot say. */
function preparedArgs({ tool, args }: Omit<CallStart, "toolCallId">): unknown {
	if (!tool?.prepareArguments) return args;
	try {
		return tool.prepareArguments(args);
	} catch {
		return args;
	}
}

function absolute(path: string, cwd: string): string {
	return isAbsolute(path) ? path : resolve(cwd, path);
}

/** What a finished call shows: the change it made as diffs where loom knows it, otherwise its result's content. */
export function toolCallContent(call: CallEnd, cwd: string): ToolCallContent[] {
	if (!call.isError) {
		const diffs = changeDiffs(call, cwd);
		if (diffs.length > 0) return diffs;
	}
	return resultContent(call.result.content);
}

/** A call's result blocks (or a live update's) as ACP content. */
export function resultContent(blocks: AgentToolResult<unknown>["content"]): ToolCallContent[] {
	return blocks.map((block) => ({ type: "content", content: contentBlock(block) }));
}

/** A text or image block as ACP's, with only the fields ACP defines. */
export function contentBlock(block: TextContent | ImageContent): ContentBlock {
	return block.type === "text" ? { type: "text", text: block.text } : { type: "image", data: block.data, mimeType: block.mimeType };
}

/** The 1-based line of a file a finished edit changed first (the editor can follow it there). */
export function changedLine(call: Pick<CallEnd, "result">): number | undefined {
	return rawNumber(call.result.details, "firstChangedLine");
}

/** An edit's diff as it was applied (each hunk with its context); otherwise the change the call asked for. */
function changeDiffs(call: CallEnd, cwd: string): ToolCallContent[] {
	const path = rawString(call.result.details, "path");
	const diff = rawString(call.result.details, "diff");
	if (path !== undefined && diff !== undefined) return hunkDiffs(path, diff);
	return proposedDiffs(call, cwd);
}

/**
 * Each hunk of a unified diff as the text it replaced and the text that replaced it, context lines included,
 * so an editor can place and show the change without the whole file.
 */
export function hunkDiffs(path: string, unifiedDiff: string): ToolCallContent[] {
	let patches: ReturnType<typeof parsePatch>;
	try {
		patches = parsePatch(unifiedDiff);
	} catch {
		return [];
	}
	return patches.flatMap((patch) =>
		patch.hunks.map((hunk): ToolCallContent => {
			const oldLines: string[] = [];
			const newLines: string[] = [];
			for (const line of hunk.lines) {
				const text = line.slice(1);
				if (line.startsWith(" ")) {
					oldLines.push(text);
					newLines.push(text);
				} else if (line.startsWith("-")) oldLines.push(text);
				else if (line.startsWith("+")) newLines.push(text);
			}
			return { type: "diff", path, oldText: oldLines.join("\n"), newText: newLines.join("\n") };
		}),
	);
}
