// One-line previews of a tool call's raw arguments. The arguments are the model's unvalidated output
// (seed 000, section 4): every field is checked before use and nothing here trusts their shape.

export interface ToolArgsPreview {
	/** What the row shows after the tool name. */
	summary: string;
	/** The path argument, when the call has one. */
	path?: string;
}

const MAX_PREVIEW = 200;

function field(args: unknown, ...names: string[]): unknown {
	if (!args || typeof args !== "object") return undefined;
	for (const name of names) {
		const value = (args as Record<string, unknown>)[name];
		if (value !== undefined) return value;
	}
	return undefined;
}

function stringField(args: unknown, ...names: string[]): string | undefined {
	const value = field(args, ...names);
	return typeof value === "string" ? value : undefined;
}

function numberField(args: unknown, ...names: string[]): number | undefined {
	const value = field(args, ...names);
	return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** Collapses whitespace so a multi-line command stays on one row; the row itself truncates to the width. */
export function oneLine(text: string, max = MAX_PREVIEW): string {
	const flat = text.replace(/\s+/g, " ").trim();
	return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function readRange(args: unknown): string {
	const offset = numberField(args, "offset");
	const limit = numberField(args, "limit");
	if (offset === undefined && limit === undefined) return "";
	const start = offset ?? 1;
	return limit === undefined ? `:${start}-` : `:${start}-${start + limit - 1}`;
}

function genericPreview(args: unknown): string {
	if (args === undefined || args === null) return "";
	try {
		return oneLine(typeof args === "string" ? args : JSON.stringify(args));
	} catch {
		return "";
	}
}

export function previewToolArgs(toolName: string, args: unknown): ToolArgsPreview {
	const path = stringField(args, "path", "file_path", "filePath");
	switch (toolName) {
		case "bash": {
			const command = stringField(args, "command", "cmd");
			return { summary: command === undefined ? genericPreview(args) : oneLine(command) };
		}
		case "read":
			return path === undefined ? { summary: genericPreview(args) } : { summary: `${path}${readRange(args)}`, path };
		case "write":
		case "edit":
			return path === undefined ? { summary: genericPreview(args) } : { summary: path, path };
		default:
			return path === undefined ? { summary: genericPreview(args) } : { summary: path, path };
	}
}
