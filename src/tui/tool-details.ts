// Projects a tool result's `details` (an app-defined, unknown structure; seed 000, section 10) onto the few
// fields the screen shows. Unknown or malformed fields are dropped, never trusted.
import type { ToolDetailsView } from "./view-model.js";

function num(value: unknown): number | undefined {
	return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function str(value: unknown): string | undefined {
	return typeof value === "string" ? value : undefined;
}

function bool(value: unknown): boolean | undefined {
	return typeof value === "boolean" ? value : undefined;
}

export function projectToolDetails(details: unknown): ToolDetailsView | undefined {
	if (!details || typeof details !== "object") return undefined;
	const d = details as Record<string, unknown>;
	const view: ToolDetailsView = {
		exitCode: d.exitCode === null ? undefined : num(d.exitCode),
		signal: str(d.signal),
		timedOut: bool(d.timedOut),
		aborted: bool(d.aborted),
		truncated: bool(d.truncated),
		fullOutputPath: str(d.fullOutputPath),
		diff: str(d.diff),
		firstChangedLine: num(d.firstChangedLine),
		bytes: num(d.bytes),
		startLine: num(d.startLine),
		endLine: num(d.endLine),
		totalLines: num(d.totalLines),
		kind: str(d.kind),
	};
	for (const key of Object.keys(view) as (keyof ToolDetailsView)[]) {
		if (view[key] === undefined) delete view[key];
	}
	return Object.keys(view).length > 0 ? view : undefined;
}
