// One way of masking secret values, for every path that keeps them out of sight: provider errors, tool results,
// live tool output, shell output joining a prompt.
import { describe, expect, it } from "vitest";
import {
	redactSecrets as fromLlm,
	MASK,
	maskValues,
	redactSecrets,
} from "../../../../src/core/lib/text/secret-mask.js";
import { secretMask } from "../../../../src/plugs/policy/secrets.js";

describe("redactSecrets (an error's text)", () => {
	it("replaces each secret, skipping placeholders too short to be keys", () => {
		expect(redactSecrets("key sk-0123 and x", "sk-0123", "x", undefined)).toBe(`key ${MASK} and x`);
		expect(fromLlm).toBe(redactSecrets);
	});

	it("masks a secret that contains another whole, whatever order they come in", () => {
		expect(redactSecrets("key sk-abc-123456", "sk-abc", "sk-abc-123456")).toBe(`key ${MASK}`);
	});
});

describe("maskValues", () => {
	it("keeps values of at least the length given, longest first, and masks them in text and at a live text's cut edges", () => {
		const mask = maskValues(["tok-1234567890abcdef", "short", "tok-1234567890abcdef-long"], 8);
		expect(mask.values).toEqual(["tok-1234567890abcdef-long", "tok-1234567890abcdef"]);
		expect(mask.mask("a tok-1234567890abcdef-long b tok-1234567890abcdef short")).toBe(`a ${MASK} b ${MASK} short`);
		expect(mask.maskLive("export T=tok-12345")).toBe(`export T=${MASK}`);
	});

	it("is what the policy's mask of the environment uses", () => {
		const policy = secretMask({ API_TOKEN: "tok-1234567890abcdef" }, ["sk-configured-key"]);
		const same = maskValues(["sk-configured-key", "tok-1234567890abcdef"], 8);
		expect(policy.values).toEqual(same.values);
		expect(policy.maskLive("67890abcdef sk-configured-key")).toBe(same.maskLive("67890abcdef sk-configured-key"));
	});
});
