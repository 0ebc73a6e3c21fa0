// What a content part of a message must be, checked where parts come from outside the code that builds them (a
// hook's result, a session file): every provider and the screen read these fields without looking first.

/** The kinds of part a message may hold: user and tool-result messages text and images, answers the other three. */
export type ContentPartKind = "text" | "image" | "thinking" | "toolCall";

export const TOOL_RESULT_PARTS: readonly ContentPartKind[] = ["text", "image"];
export const ANSWER_PARTS: readonly ContentPartKind[] = ["text", "thinking", "toolCall"];

/** The fields every part of a kind has, and what they hold. */
const FIELDS: Record<ContentPartKind, readonly [string, "string" | "object"][]> = {
	text: [["text", "string"]],
	image: [
		["data", "string"],
		["mimeType", "string"],
	],
	thinking: [["thinking", "string"]],
	toolCall: [
		["id", "string"],
		["name", "string"],
		["arguments", "object"],
	],
};

/** Why `part` is not a well-formed part of one of the `allowed` kinds ("is null", ".text is a number"); undefined if it is. */
export function contentPartProblem(part: unknown, allowed: readonly ContentPartKind[]): string | undefined {
	if (part === null || typeof part !== "object" || Array.isArray(part)) return `is ${describe(part)}`;
	const fields = part as Record<string, unknown>;
	const type = fields.type;
	if (typeof type !== "string" || !allowed.includes(type as ContentPartKind)) return `has type ${describe(type)}, not ${allowed.join(" or ")}`;
	for (const [field, kind] of FIELDS[type as ContentPartKind]) {
		const value = fields[field];
		const fits = kind === "object" ? value !== null && typeof value === "object" && !Array.isArray(value) : typeof value === kind;
		if (!fits) return `.${field} is ${describe(value)}`;
	}
	return undefined;
}

/** Why `content` is not a list of well-formed parts of the `allowed` kinds (naming the first bad part); undefined if it is. */
export function contentProblem(content: unknown, allowed: readonly ContentPartKind[]): string | undefined {
	if (!Array.isArray(content)) return `content is ${describe(content)}, not a list of parts`;
	for (const [index, part] of content.entries()) {
		const problem = contentPartProblem(part, allowed);
		if (problem) return `content[${index}]${problem.startsWith(".") ? "" : " "}${problem}`;
	}
	return undefined;
}

/** Why `result` (a tool's, as its code returned it) cannot become a tool-result message; undefined if it can. */
export function toolResultProblem(result: unknown): string | undefined {
	if (result === null || typeof result !== "object" || Array.isArray(result)) return `it returned ${result === undefined ? "nothing" : describe(result)}, not an object`;
	return contentProblem((result as { content?: unknown }).content, TOOL_RESULT_PARTS);
}

function describe(value: unknown): string {
	if (value === null) return "null";
	if (value === undefined) return "missing";
	if (Array.isArray(value)) return "a list";
	if (typeof value === "string") return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
	return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
