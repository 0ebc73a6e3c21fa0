// A server's plain JSON Schema, checked by the same validation as every tool's arguments, and sent to the
// provider exactly as the server wrote it.
import { describe, expect, it } from "vitest";
import { validateToolArguments } from "../../../src/core/engine/tool-execution.js";
import { checkableSchema } from "../../../src/core/engine/json-schema-to-typebox.js";

function validate(schema: unknown, args: unknown): unknown {
	return validateToolArguments({ name: "mcp__s__t", description: "", parameters: checkableSchema(schema) }, { arguments: args as any });
}

function rejects(schema: unknown, args: unknown): string {
	try {
		validate(schema, args);
	} catch (error) {
		return (error as Error).message;
	}
	throw new Error(`accepted ${JSON.stringify(args)}`);
}

// server-everything's get-annotated-message, as its tools/list sends it.
const annotated = {
	type: "object",
	properties: {
		messageType: { type: "string", enum: ["error", "success", "debug"], description: "Type of message" },
		includeImage: { default: false, description: "Whether to include an example image", type: "boolean" },
	},
	required: ["messageType"],
	$schema: "http://json-schema.org/draft-07/schema#",
};

describe("checkableSchema", () => {
	it("serialises exactly as the server's schema, whatever it added for checking", () => {
		const schemas = [
			annotated,
			{ type: "object", properties: { a: { type: ["string", "null"] }, b: { oneOf: [{ type: "number" }, { const: "x" }] } } },
			{ type: "object", properties: { n: { $ref: "#/$defs/n" } }, $defs: { n: { type: "integer" } } },
			{ type: "object" },
			{ type: "object", properties: { list: { type: "array" } } },
		];
		for (const schema of schemas) expect(JSON.stringify(checkableSchema(schema))).toBe(JSON.stringify(schema));
	});

	it("does not change the server's object", () => {
		const schema = structuredClone(annotated);
		checkableSchema(schema);
		expect(schema).toEqual(annotated);
		expect(Object.getOwnPropertySymbols(schema)).toEqual([]);
	});

	it("accepts valid arguments and converts what can be converted", () => {
		expect(validate(annotated, { messageType: "error" })).toEqual({ messageType: "error" });
		expect(validate({ type: "object", properties: { a: { type: "number" } } }, { a: "3" })).toEqual({ a: 3 });
	});

	it("names each failing path: a missing required field, a value outside an enum, a wrong type", () => {
		expect(rejects(annotated, {})).toContain("/messageType");
		expect(rejects(annotated, { messageType: "warning" })).toContain("/messageType");
		expect(rejects(annotated, { messageType: "error", includeImage: "often" })).toContain("/includeImage");
	});

	it("checks type lists, oneOf, const, local $refs, array items and additionalProperties", () => {
		const schema = {
			type: "object",
			properties: {
				a: { type: ["string", "null"] },
				b: { oneOf: [{ type: "number" }, { const: "x" }] },
				n: { $ref: "#/$defs/n" },
				list: { type: "array", items: { type: "string" } },
			},
			additionalProperties: false,
			$defs: { n: { type: "integer", minimum: 1 } },
		};
		expect(validate(schema, { a: null, b: "x", n: 2, list: ["p"] })).toEqual({ a: null, b: "x", n: 2, list: ["p"] });
		expect(rejects(schema, { a: [1] })).toContain("/a");
		expect(rejects(schema, { b: "y" })).toContain("/b");
		expect(rejects(schema, { n: 0 })).toContain("/n");
		expect(rejects(schema, { list: [{}] })).toContain("/list/0");
		expect(rejects(schema, { extra: true })).toContain("extra");
	});

	it("accepts what TypeBox cannot check rather than refusing every call: unknown formats, tuples, bad patterns, recursive refs", () => {
		const schema = {
			type: "object",
			properties: {
				url: { type: "string", format: "uri-reference-of-our-own" },
				pair: { type: "array", items: [{ type: "string" }, { type: "number" }] },
				code: { type: "string", pattern: "(?<unclosed" },
				tree: { $ref: "#/$defs/tree" },
				any: {},
			},
			$defs: { tree: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/tree" } } } } },
		};
		const args = { url: "x", pair: ["a", 1], code: "c", tree: { children: [{ children: [] }] }, any: [1, { b: 2 }] };
		expect(validate(schema, args)).toEqual(args);
	});

	it("treats a schema without a type but with properties as an object", () => {
		expect(rejects({ properties: { a: { type: "string" } }, required: ["a"] }, {})).toContain("/a");
	});
});
