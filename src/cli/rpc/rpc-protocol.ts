// RPC mode's wire format: what a command line holds, the response lines, and reading a command's fields with
// errors that name the field. Commands and answers arrive on stdin, one JSON object a line; responses, events
// and questions leave on stdout the same way.
import { detectImageMimeType, MAX_IMAGE_BYTES, formatSize, errorMessage } from "../../core/index.js";
import type { ImageContent } from "../../core/index.js";

/** One command line, parsed: its type, the id to echo, and every other field for its handler to read. */
export interface RpcCommand {
	type: string;
	id?: string | number;
	fields: Record<string, unknown>;
}

export type RpcResponse =
	| { type: "response"; id?: string | number; command: string; success: true; data?: unknown }
	| { type: "response"; id?: string | number; command: string; success: false; error: string };

/** A command line loom could not use; becomes an error response, and loom keeps serving. */
export class CommandError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "CommandError";
	}
}

/** A line as parsed: a command, or why it is not one (with the id to echo when the line had one). */
export type ParsedLine = { ok: true; command: RpcCommand } | { ok: false; id?: string | number; error: string };

/** Parses one line: a JSON object with a string `type`. */
export function parseCommandLine(line: string): ParsedLine {
	let value: unknown;
	try {
		value = JSON.parse(line);
	} catch (error) {
		return { ok: false, error: `Failed to parse command: ${errorMessage(error)}. Send one JSON object a line.` };
	}
	if (typeof value !== "object" || value === null || Array.isArray(value)) {
		return { ok: false, error: 'Failed to parse command: a command is a JSON object such as {"type": "prompt", "message": "..."}.' };
	}
	const { type, id, ...fields } = value as Record<string, unknown>;
	const echoed = typeof id === "string" || typeof id === "number" ? id : undefined;
	if (typeof type !== "string" || type === "") {
		return { ok: false, id: echoed, error: 'The command has no "type": say which command it is, e.g. "prompt" or "get_state".' };
	}
	return { ok: true, command: { type, id: echoed, fields } };
}

export function success(command: Pick<RpcCommand, "type" | "id">, data?: unknown): RpcResponse {
	return { type: "response", ...(command.id !== undefined ? { id: command.id } : {}), command: command.type, success: true, ...(data !== undefined ? { data } : {}) };
}

export function failure(command: Pick<RpcCommand, "type" | "id">, error: string): RpcResponse {
	return { type: "response", ...(command.id !== undefined ? { id: command.id } : {}), command: command.type, success: false, error };
}

/** A required string field. */
export function stringField(command: RpcCommand, name: string): string {
	const value = command.fields[name];
	if (typeof value !== "string") throw new CommandError(`${command.type} needs "${name}" as a string.`);
	return value;
}

/** An optional string field. */
export function optionalString(command: RpcCommand, name: string): string | undefined {
	const value = command.fields[name];
	if (value === undefined || value === null) return undefined;
	if (typeof value !== "string") throw new CommandError(`${command.type}: "${name}" must be a string.`);
	return value;
}

/** An optional boolean field. */
export function optionalBoolean(command: RpcCommand, name: string): boolean | undefined {
	const value = command.fields[name];
	if (value === undefined || value === null) return undefined;
	if (typeof value !== "boolean") throw new CommandError(`${command.type}: "${name}" must be true or false.`);
	return value;
}

/** A required field that must be one of `choices`. */
export function choiceField<T extends string>(command: RpcCommand, name: string, choices: readonly T[]): T {
	const value = command.fields[name];
	if (typeof value !== "string" || !choices.includes(value as T)) {
		throw new CommandError(`${command.type} needs "${name}" as one of: ${choices.join(", ")}.`);
	}
	return value as T;
}

/**
 * `images`: each `{"type": "image", "data": <base64>, "mimeType": "image/png"}`. The bytes must be a PNG, JPEG,
 * GIF or WebP image of the type named, at most the size providers accept.
 */
export function imagesField(command: RpcCommand): ImageContent[] {
	const value = command.fields.images;
	if (value === undefined || value === null) return [];
	if (!Array.isArray(value)) throw new CommandError(`${command.type}: "images" must be an array of {"type": "image", "data", "mimeType"}.`);
	return value.map((image, index) => checkImage(image, `${command.type}: images[${index}]`));
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function checkImage(image: unknown, where: string): ImageContent {
	const { type, data, mimeType } = (typeof image === "object" && image !== null ? image : {}) as Record<string, unknown>;
	if (type !== "image" || typeof data !== "string" || typeof mimeType !== "string") {
		throw new CommandError(`${where} must be {"type": "image", "data": <base64>, "mimeType": "image/png"}.`);
	}
	if (data.length % 4 !== 0 || !BASE64.test(data)) throw new CommandError(`${where}: "data" is not base64.`);
	const bytes = Buffer.from(data, "base64");
	if (bytes.length > MAX_IMAGE_BYTES) {
		throw new CommandError(`${where} is ${formatSize(bytes.length)}, over the ${formatSize(MAX_IMAGE_BYTES)} providers accept; send a smaller copy.`);
	}
	const detected = detectImageMimeType(bytes);
	if (!detected) throw new CommandError(`${where} is not a PNG, JPEG, GIF or WebP image.`);
	if (detected !== mimeType) throw new CommandError(`${where} says "${mimeType}" but its bytes are ${detected}.`);
	return { type: "image", data, mimeType };
}
