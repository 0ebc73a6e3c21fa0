import { highlight as cliHighlight } from "cli-highlight";
import { stripVTControlCharacters as strip } from "node:util";
import { describe, expect, it } from "vitest";
import { colorize, highlight, supportsLanguage } from "../../../src/tui/text/highlight.js";
import { withHighlightColours } from "../highlight-colours.js";

withHighlightColours();

const SAMPLES: [string, string][] = [
	["ts", 'interface A { b: string }\nexport async function f<T>(x: T): Promise<T> {\n\tconst s = `v ${x} & <y>`; // "q" \'r\'\n\treturn /re+/g.test(s) ? x : null as any;\n}'],
	["js", "class C extends D { #p = 1; static get x() { return 0x1f + 1e3; } }\n/** @param {number} n */\nconst f = (n) => n > 1 && n < 2;"],
	["python", 'import os\n\n@decorator\ndef f(a: int = 1, *args, **kw) -> str:\n    """doc &amp; string"""\n    return f"{a!r}" if a else None  # comment'],
	["bash", 'for f in *.ts; do\n  echo "$f" | grep -E "<a>|&b" > /dev/null && exit 1\ndone'],
	["json", '{"a": [1, 2.5, true, null], "b": {"c": "<&>"}}'],
	["html", '<!DOCTYPE html>\n<div class="x" onclick="f(1 < 2)">&amp; text<script>let a = "b";</script><style>p { color: red; }</style></div>'],
	["css", "@media (max-width: 600px) { .a > b::before { content: '&'; color: #fff !important; } }"],
	["go", 'package main\n\nfunc main() {\n\tch := make(chan int, 3)\n\tfmt.Println("hi", <-ch)\n}'],
	["rust", "fn main() -> Result<(), Box<dyn Error>> { let v: Vec<&str> = vec![\"a\"]; println!(\"{:?}\", v); Ok(()) }"],
	["sql", "SELECT a, COUNT(*) FROM t WHERE b <> 'x' AND c >= 2 GROUP BY a; -- done"],
	["diff", "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-old <line>\n+new &line\n context"],
	["markdown", "# Title\n\n```js\nconst a = 1;\n```\n\n- item with `code` & <b>html</b>"],
	["yaml", "key: value\nlist:\n  - 'a'\n  - \"b & c\"\nanchors: &x { y: 1 }"],
	["xml", '<?xml version="1.0"?>\n<a b="c &amp; d"><![CDATA[ <raw> ]]><!-- note --></a>'],
];

describe("highlight", () => {
	it("colours code exactly as cli-highlight's highlight() does, for many languages and nestings", () => {
		for (const [language, code] of SAMPLES) {
			expect(supportsLanguage(language)).toBe(true);
			const ours = highlight(code, language);
			expect(ours, language).toBe(cliHighlight(code, { language, ignoreIllegals: true }));
			expect(strip(ours), language).toBe(code);
			expect(ours, language).not.toBe(code);
		}
	});

	it("decodes each escaped character exactly once and keeps unknown classes unstyled", () => {
		expect(colorize("a &amp;lt; b &lt;c&gt; &quot;d&quot; &#x27;e&#x27;")).toBe("a &lt; b <c> \"d\" 'e'");
		expect(strip(colorize('<span class="language-xml">x <span class="hljs-tag">&lt;y&gt;</span></span>'))).toBe("x <y>");
	});

	it("knows which languages it can colour", () => {
		expect(supportsLanguage("typescript")).toBe(true);
		expect(supportsLanguage("nosuchlang")).toBe(false);
	});
});
