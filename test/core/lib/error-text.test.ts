// The words of whatever was thrown, the one way loom puts them.
import { describe, expect, it } from "vitest";
import { errorMessage, errorMessageWithCause } from "../../../src/core/lib/error-text.js";

describe("errorMessage", () => {
	it("is an Error's message, or anything else thrown as text", () => {
		expect(errorMessage(new TypeError("bad input"))).toBe("bad input");
		expect(errorMessage("plain words")).toBe("plain words");
		expect(errorMessage(42)).toBe("42");
		expect(errorMessage(undefined)).toBe("undefined");
	});

	it("names an Error thrown without a message, so a report is never blank", () => {
		expect(errorMessage(new RangeError())).toBe("RangeError");
	});
});

describe("errorMessageWithCause", () => {
	it("adds the cause's message when the error's own does not hold it", () => {
		const error = new Error("fetch failed", { cause: new Error("connect ECONNREFUSED 127.0.0.1:1") });
		expect(errorMessageWithCause(error)).toBe("fetch failed: connect ECONNREFUSED 127.0.0.1:1");
	});

	it("says the cause once, and nothing more without one", () => {
		expect(errorMessageWithCause(new Error("timed out: socket hang up", { cause: new Error("socket hang up") }))).toBe("timed out: socket hang up");
		expect(errorMessageWithCause(new Error("refused", { cause: "not an error" }))).toBe("refused");
		expect(errorMessageWithCause("thrown text")).toBe("thrown text");
	});
});
