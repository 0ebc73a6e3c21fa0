// How a failed request to a server is told apart and put into words, a refused answer's schema issues among them
// (no SDK needed, so it loads with loom).

/** Why a request failed: no answer in time, the connection closed under it, the server refused it, or the
 * transport could not carry it (a remote server gone). */
export type FailureKind = "timeout" | "closed" | "server" | "transport";

export class RequestFailure extends Error {
	constructor(
		readonly kind: FailureKind,
		message: string,
	) {
		super(message);
		this.name = "RequestFailure";
	}
}

export function formatMs(ms: number): string {
	return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

// A server's answer that breaks the MCP schema is refused by the SDK with a validation error whose message is the
// issues as pretty-printed JSON; a report is one line naming the fields at fault.

interface Issue {
	path: readonly PropertyKey[];
	message: string;
}

/** Issues named at most, the rest counted. */
const MAX_ISSUES = 3;

/** "tools[1].inputSchema.type: Invalid input: expected "object"" for each issue; undefined for any other error. */
export function schemaIssuesText(error: unknown): string | undefined {
	const issues = (error as { issues?: unknown })?.issues;
	if (!Array.isArray(issues) || issues.length === 0 || !issues.every(isIssue)) return undefined;
	const named = issues.slice(0, MAX_ISSUES).map((issue) => `${fieldPath(issue.path)}: ${issue.message}`);
	const more = issues.length - named.length;
	return `${named.join("; ")}${more > 0 ? `; and ${more} more` : ""}`;
}

function isIssue(value: unknown): value is Issue {
	const issue = value as Partial<Issue> | null;
	return typeof issue === "object" && issue !== null && Array.isArray(issue.path) && typeof issue.message === "string";
}

/** ["tools", 1, "inputSchema"] → "tools[1].inputSchema". */
function fieldPath(path: readonly PropertyKey[]): string {
	return path.map((part, index) => (typeof part === "number" ? `[${part}]` : `${index === 0 ? "" : "."}${String(part)}`)).join("") || "(the answer)";
}
