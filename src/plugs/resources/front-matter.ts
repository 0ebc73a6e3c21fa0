// YAML front matter at the top of a Markdown file ("---" lines around it), as SKILL.md files and prompt
// templates carry it. Parsed with the `yaml` package (YAML 1.2, no code-running tags, alias expansion capped),
// loaded only when a file has front matter.
import { errorMessage } from "../../core/index.js";

export interface FrontMatter {
	/** The front matter's fields; empty when the file has none. */
	data: Record<string, unknown>;
	/** The text after the front matter (all of it when there is none), line endings as "\n". */
	body: string;
}

/** The front matter is malformed: its message says what is wrong (the caller adds the file's path). */
export class FrontMatterError extends Error {
	override name = "FrontMatterError";
}

const OPENING = /^---[ \t]*\n/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*$/m;

/** Splits and parses; throws FrontMatterError for front matter that is not closed or not a YAML mapping. */
export async function parseFrontMatter(text: string): Promise<FrontMatter> {
	const normalized = text.replace(/\r\n?/g, "\n");
	if (!OPENING.test(normalized)) return { data: {}, body: normalized };
	const rest = normalized.replace(OPENING, "");
	const closing = CLOSING.exec(rest);
	if (!closing) throw new FrontMatterError('the front matter that starts with "---" has no closing "---" line');
	const source = rest.slice(0, closing.index);
	const body = rest.slice(closing.index + closing[0].length).replace(/^\n/, "");
	const { parse } = await import("yaml");
	let data: unknown;
	try {
		// Warnings (an unknown tag, kept as plain text) would go to stderr, across the screen: not emitted.
		data = parse(source, { logLevel: "error" });
	} catch (error) {
		throw new FrontMatterError(`the front matter is not valid YAML: ${errorMessage(error).split("\n")[0]}`);
	}
	if (data === null || data === undefined) return { data: {}, body };
	if (typeof data !== "object" || Array.isArray(data)) throw new FrontMatterError("the front matter is not a list of key: value fields");
	return { data: data as Record<string, unknown>, body };
}

/** A field that must be a string when present: its trimmed text, undefined when absent, an error otherwise. */
export function stringField(data: Record<string, unknown>, key: string): string | undefined {
	const value = data[key];
	if (value === undefined || value === null) return undefined;
	if (typeof value !== "string") throw new FrontMatterError(`"${key}" must be text, not ${Array.isArray(value) ? "a list" : typeof value}`);
	return value.trim();
}
