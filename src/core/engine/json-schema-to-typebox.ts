// A tool's plain JSON Schema (an MCP server's inputSchema, an extension tool's parameters) made checkable by TypeBox, which the agent loop
// validates every tool's arguments with. TypeBox schemas are JSON Schema plus a `Kind` symbol on each node, so
// each node is copied with its kind added; where TypeBox needs a keyword the JSON Schema spells differently
// (enum, type lists, oneOf, $ref), the keyword it reads is added as a non-enumerable property. The schema a
// provider is sent (JSON.stringify, which skips symbols and non-enumerable properties) is the server's own.
// What TypeBox cannot check (tuples, draft-4 boolean bounds, a pattern JavaScript cannot compile, non-local
// $refs) is accepted as is: the server checks its own arguments too.
import { FormatRegistry, Kind, type TSchema } from "@sinclair/typebox";
import { isRecord } from "../ai/index.js";

type Node = Record<string | symbol, unknown>;

/** Whether `schema` is TypeBox's already (each of its nodes carries a kind), not plain JSON Schema. */
export function isTypeBoxSchema(schema: unknown): schema is TSchema {
	return isRecord(schema) && Kind in schema;
}

/** A TypeBox-checkable copy of `schema` that serialises exactly as `schema` does. */
export function checkableSchema(schema: unknown): TSchema {
	return new Converter(schema).convert(schema) as unknown as TSchema;
}

class Converter {
	/** $refs being resolved, innermost last: a reference back into one of them is not followed again. */
	private readonly resolving: string[] = [];

	constructor(private readonly root: unknown) {}

	convert(node: unknown): Node {
		if (node === false) return withKind({}, "Never");
		if (!isRecord(node)) return withKind({}, "Unknown");
		const out: Node = { ...node };
		this.convertChildren(node, out);
		return this.assignKind(node, out);
	}

	/** Every schema-valued keyword TypeBox reads, replaced by its converted copy (which serialises the same). */
	private convertChildren(node: Record<string, unknown>, out: Node): void {
		if (isRecord(node.properties)) {
			out.properties = Object.fromEntries(Object.entries(node.properties).map(([key, value]) => [key, this.convert(value)]));
		}
		if (isRecord(node.items) || typeof node.items === "boolean") out.items = this.convert(node.items);
		if (isRecord(node.additionalProperties)) out.additionalProperties = this.convert(node.additionalProperties);
		if (isRecord(node.contains)) out.contains = this.convert(node.contains);
		if (node.not !== undefined) out.not = this.convert(node.not);
		for (const key of ["anyOf", "oneOf", "allOf"] as const) {
			if (Array.isArray(node[key])) out[key] = (node[key] as unknown[]).map((member) => this.convert(member));
		}
	}

	private assignKind(node: Record<string, unknown>, out: Node): Node {
		if (typeof node.$ref === "string") return this.reference(node.$ref, out);
		if (Array.isArray(node.enum)) {
			const literals = node.enum.map(literal);
			return literals.every((member) => member !== undefined) ? hidden(withKind(out, "Union"), "anyOf", literals) : withKind(out, "Unknown");
		}
		if ("const" in node) {
			if (node.const === null) return withKind(out, "Null");
			return withKind(out, isPrimitive(node.const) ? "Literal" : "Unknown");
		}
		if (Array.isArray(out.anyOf)) return withKind(out, "Union");
		if (Array.isArray(out.oneOf)) return hidden(withKind(out, "Union"), "anyOf", out.oneOf);
		if (Array.isArray(out.allOf)) return withKind(out, "Intersect");
		if (out.not !== undefined) return withKind(out, "Not");
		const type = node.type;
		if (Array.isArray(type)) {
			const members = type.map((one) => this.convert({ ...node, type: one }));
			return hidden(withKind(out, "Union"), "anyOf", members);
		}
		switch (type ?? impliedType(node)) {
			case "string":
				return stringKind(node, out);
			case "number":
				return numericKind(node, out, "Number");
			case "integer":
				return numericKind(node, out, "Integer");
			case "boolean":
				return withKind(out, "Boolean");
			case "null":
				return withKind(out, "Null");
			case "object":
				return objectKind(node, out);
			case "array":
				return arrayKind(node, out);
			default:
				return withKind(out, "Unknown");
		}
	}

	/** A local reference (`#`, `#/$defs/x`, `#/definitions/x`) checks its target; anything else checks nothing. */
	private reference(ref: string, out: Node): Node {
		const target = ref.startsWith("#") && !this.resolving.includes(ref) ? pointer(this.root, ref.slice(1)) : undefined;
		if (target === undefined) return withKind(out, "Unknown");
		this.resolving.push(ref);
		try {
			return hidden(withKind(out, "Intersect"), "allOf", [this.convert(target)]);
		} finally {
			this.resolving.pop();
		}
	}
}

function stringKind(node: Record<string, unknown>, out: Node): Node {
	if (node.pattern !== undefined) {
		try {
			new RegExp(node.pattern as string);
		} catch {
			return withKind(out, "Unknown");
		}
	}
	// TypeBox refuses every string of a format it has no check for; the server knows its formats.
	if (typeof node.format === "string" && !FormatRegistry.Has(node.format)) FormatRegistry.Set(node.format, () => true);
	return withKind(out, "String");
}

function numericKind(node: Record<string, unknown>, out: Node, kind: "Number" | "Integer"): Node {
	// Draft 4 wrote exclusive bounds as booleans beside minimum/maximum; TypeBox reads them as numbers.
	const bounds = [node.exclusiveMinimum, node.exclusiveMaximum, node.minimum, node.maximum, node.multipleOf];
	return bounds.every((bound) => bound === undefined || typeof bound === "number") ? withKind(out, kind) : withKind(out, "Unknown");
}

function objectKind(node: Record<string, unknown>, out: Node): Node {
	if (node.required !== undefined && !(Array.isArray(node.required) && node.required.every((key) => typeof key === "string"))) {
		return withKind(out, "Unknown");
	}
	if (!isRecord(node.properties)) hidden(out, "properties", {});
	return withKind(out, "Object");
}

function arrayKind(node: Record<string, unknown>, out: Node): Node {
	// A tuple (draft-7 `items: [...]`) is not checked.
	if (Array.isArray(node.items)) return withKind(out, "Unknown");
	if (node.items === undefined) hidden(out, "items", withKind({}, "Unknown"));
	return withKind(out, "Array");
}

function impliedType(node: Record<string, unknown>): string | undefined {
	if (node.properties !== undefined || node.required !== undefined || node.additionalProperties !== undefined) return "object";
	if (node.items !== undefined) return "array";
	return undefined;
}

/** A TypeBox node matching exactly `value`; undefined for objects and arrays, which TypeBox literals cannot be. */
function literal(value: unknown): Node | undefined {
	if (value === null) return withKind({}, "Null");
	return isPrimitive(value) ? withKind({ const: value }, "Literal") : undefined;
}

function isPrimitive(value: unknown): value is string | number | boolean {
	return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

/** The node at a JSON pointer ("" is the root). */
function pointer(root: unknown, path: string): unknown {
	if (path === "") return root;
	if (!path.startsWith("/")) return undefined;
	let node: unknown = root;
	for (const raw of path.slice(1).split("/")) {
		const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
		if (!isRecord(node) || !(key in node)) return undefined;
		node = node[key];
	}
	return node;
}

function withKind(node: Node, kind: string): Node {
	node[Kind] = kind;
	return node;
}

/** A property TypeBox reads that JSON.stringify (and so the provider) never sees. */
function hidden(node: Node, key: string, value: unknown): Node {
	Object.defineProperty(node, key, { value, enumerable: false, writable: true, configurable: true });
	return node;
}
