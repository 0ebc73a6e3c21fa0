import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { cutEnd, cutMiddle } from "../../../src/tui/text/fit-row.js";

describe("fitting text into columns", () => {
	it("leaves text that fits as it is", () => {
		expect(cutEnd("abc", 3)).toBe("abc");
		expect(cutMiddle("~/a/b", 5)).toBe("~/a/b");
	});

	it("cuts at the end or in the middle, keeping more of a path's end, counting wide characters as two columns", () => {
		expect(cutEnd("abcdefgh", 5)).toBe("abcd…");
		expect(cutMiddle("~/work/clients/acme/billing-api", 16)).toBe("~/wor…illing-api");
		const wide = cutMiddle("~/项目/客户/服务/计费", 11);
		expect(stringWidth(wide)).toBeLessThanOrEqual(11);
		expect(wide).toMatch(/^~\/.*….*计费$/);
	});
});
