// Defensive reads of values nobody checked: a model's raw tool arguments, a tool's details from an old session
// file. A field of the wrong type reads as absent, never as a crash.

/** The first of `names` present on `value` (when it is an object). */
export function rawField(value: unknown, ...names: string[]): unknown {
	if (!value || typeof value !== "object") return undefined;
	for (const name of names) {
		const field = (value as Record<string, unknown>)[name];
		if (field !== undefined) return field;
	}
	return undefined;
}

export function rawString(value: unknown, ...names: string[]): string | undefined {
	const field = rawField(value, ...names);
	return typeof field === "string" ? field : undefined;
}

/** A finite number only (NaN, Infinity and numeric strings read as absent). */
export function rawNumber(value: unknown, ...names: string[]): number | undefined {
	const field = rawField(value, ...names);
	return typeof field === "number" && Number.isFinite(field) ? field : undefined;
}

export function rawBoolean(value: unknown, ...names: string[]): boolean | undefined {
	const field = rawField(value, ...names);
	return typeof field === "boolean" ? field : undefined;
}
