// --output-schema: the JSON Schema a print-mode answer must follow, compiled once with ajv, and the check of an
// answer against it. The provider is asked for structured output where it has it (StreamOptions.outputSchema);
// the system prompt says the same for every model, and the answer is validated whatever the provider promised.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Ajv as AjvType, ErrorObject } from "ajv";
import type { OutputSchema } from "../../core/index.js";

export interface OutputCheck {
	/** What the providers are sent. */
	schema: OutputSchema;
	/** The answer as a JSON value valid against the schema, or the problems (one a line, for the model to read). */
	check(answer: string): { ok: true; value: unknown } | { ok: false; errors: string };
}

/** Thrown for a schema file that cannot be read, is not JSON, or is not a schema ajv can compile. */
export class OutputSchemaError extends Error {
	constructor(file: string, problem: string) {
		super(`--output-schema ${file}: ${problem}`);
		this.name = "OutputSchemaError";
	}
}

/** Reads and compiles the schema in `file` (relative to `cwd`). */
export async function loadOutputSchema(file: string, cwd: string): Promise<OutputCheck> {
	let text: string;
	try {
		text = readFileSync(resolve(cwd, file), "utf8");
	} catch (error) {
		throw new OutputSchemaError(file, (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message);
	}
	let schema: unknown;
	try {
		schema = JSON.parse(text);
	} catch (error) {
		throw new OutputSchemaError(file, `not JSON (${(error as Error).message})`);
	}
	return outputCheck(schema, file);
}

/**
 * Compiles a schema given as a value (a batch task's outputSchema); `source` names it in errors. Ajv is loaded
 * here, on the one path that compiles a schema, not by every start that imports this module.
 */
export async function outputCheck(schema: unknown, source: string): Promise<OutputCheck> {
	if (typeof schema !== "object" || schema === null || Array.isArray(schema)) throw new OutputSchemaError(source, "a JSON Schema is an object");
	const { Ajv } = await import("ajv");
	// Not strict: a schema written for another validator (unknown keywords, formats) still checks what ajv knows.
	const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
	let validate: ReturnType<AjvType["compile"]>;
	try {
		validate = ajv.compile(schema);
	} catch (error) {
		throw new OutputSchemaError(source, (error as Error).message);
	}
	const record = schema as Record<string, unknown>;
	return {
		schema: { name: schemaName(record.title), schema: record },
		check(answer) {
			let value: unknown;
			try {
				value = JSON.parse(withoutFence(answer));
			} catch (error) {
				return { ok: false, errors: `the answer is not JSON: ${(error as Error).message}` };
			}
			if (validate(value)) return { ok: true, value };
			return { ok: false, errors: describeErrors(validate.errors ?? []) };
		},
	};
}

/** What the system prompt adds: the answer's form, for models (and servers) without structured output. */
export function outputInstruction(check: OutputCheck): string {
	return [
		"Your final answer must be a single JSON value valid against this JSON Schema, and nothing else: no prose, no code fence.",
		JSON.stringify(check.schema.schema),
	].join("\n");
}

/** The follow-up prompt after an answer that did not validate. */
export function repairPrompt(errors: string): string {
	return `Your answer is not valid against the required JSON Schema:\n${errors}\nAnswer again with only the corrected JSON value.`;
}

function describeErrors(errors: readonly ErrorObject[]): string {
	return errors.map((error) => `- ${error.instancePath || "(the value)"} ${error.message ?? "is invalid"}`).join("\n");
}

/** A model asked for bare JSON may still wrap it in one ```json fence. */
function withoutFence(text: string): string {
	const match = /^\s*```[a-z]*\n([\s\S]*?)\n```\s*$/i.exec(text);
	return match ? match[1]! : text;
}

/** OpenAI's response_format wants a name of letters, digits, _ and -, at most 64 long. */
function schemaName(title: unknown): string {
	const name = typeof title === "string" ? title.replace(/[^A-Za-z0-9_-]+/g, "_").slice(0, 64) : "";
	return name || "output";
}
