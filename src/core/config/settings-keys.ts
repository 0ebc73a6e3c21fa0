// Keys of a settings file that loom does not know. They are kept (settings written by a newer loom must not
// break this one), but a person is told, since a typo ("denny") would otherwise leave a rule silently unapplied.
import type { TSchema } from "@sinclair/typebox";
import { isRecord } from "../ai/index.js";
import { closestName } from "../lib/index.js";

/** A key the schema does not name, as a dotted path ("retry.maxRetrys"), and the known key it may have meant. */
export interface UnknownKey {
	path: string;
	suggestion?: string;
}

/**
 * Every key of `value` that `schema` does not know, depth first: an object's keys against its properties, a
 * record's values (tools.<name>) against the record's value schema.
 */
export function unknownKeys(schema: TSchema, value: unknown, prefix = ""): UnknownKey[] {
	if (!isRecord(value)) return [];
	const properties = schema.properties as Record<string, TSchema> | undefined;
	if (properties) {
		const known = Object.keys(properties);
		return Object.entries(value).flatMap(([key, inner]) => {
			const path = `${prefix}${key}`;
			if (!Object.hasOwn(properties, key)) {
				const near = closestName(key, known);
				return [{ path, ...(near ? { suggestion: `${prefix}${near}` } : {}) }];
			}
			return unknownKeys(properties[key]!, inner, `${path}.`);
		});
	}
	const [valueSchema] = Object.values((schema.patternProperties ?? {}) as Record<string, TSchema>);
	if (!valueSchema) return [];
	return Object.entries(value).flatMap(([key, inner]) => unknownKeys(valueSchema, inner, `${prefix}${key}.`));
}

/** The warning for one unknown key of `file`; it starts with the file's path, so it is said once per change of the file. */
export function unknownKeyWarning(file: string, key: UnknownKey): string {
	const hint = key.suggestion ? `: did you mean ${JSON.stringify(key.suggestion)}?` : ".";
	return `${file}: unknown key ${JSON.stringify(key.path)} (kept, but loom does not use it)${hint}`;
}
