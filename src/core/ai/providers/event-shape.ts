// Checks on the shape of a parsed stream event: a provider reader takes only what has the type its wire format
// promises, and a field of another type ends the request as a malformed event (never a call with no name, never
// text silently dropped).

/** A stream event whose fields do not have the promised types; reported like unparsable JSON. */
export class MalformedEventError extends SyntaxError {
	constructor(message: string) {
		super(message);
		this.name = "MalformedEventError";
	}
}

export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `path is <what value is>, expected <expected>`, e.g. "delta.content is a number, expected text". */
export function malformed(path: string, value: unknown, expected: string): MalformedEventError {
	return new MalformedEventError(`${path} is ${kindOf(value)}, expected ${expected}`);
}

export function record(value: unknown, path: string): Record<string, unknown> {
	if (isRecord(value)) return value;
	throw malformed(path, value, "an object");
}

/** A text field that must be there. */
export function text(value: unknown, path: string): string {
	if (typeof value === "string") return value;
	throw malformed(path, value, "text");
}

/** A text field that may be missing or null. */
export function optionalText(value: unknown, path: string): string | undefined {
	return value === undefined || value === null ? undefined : text(value, path);
}

/** A token count in usage: a positive finite number; anything else counts as none. */
export function tokenCount(value: unknown): number {
	return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

function kindOf(value: unknown): string {
	if (value === undefined || value === null) return "missing";
	if (Array.isArray(value)) return "a list";
	return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
