// What bash evaluates as code that a reading of the line cannot see: a variable's value used in arithmetic
// (`x='a[$(touch p)]'; echo $((x))` runs touch, and so do array subscripts, `[[ x -eq 1 ]]` and `[[ -v 'a[…]' ]]`),
// prompt expansion `${x@P}`, indirect expansion `${!x}`, and builtins that take a variable name (`printf -v`,
// `read`, `declare`, `unset`, `test -v`) given a subscript. Such a line can run commands no rule was shown.
import type { Node } from "@vscode/tree-sitter-wasm";
import { commandName, type ShellWord } from "./shell-line.js";

/** `[[ … ]]` operators that evaluate their operands as arithmetic, or a name with its subscript. */
const EVALUATING_TESTS = new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-v", "-R"]);
/** Builtins whose arguments may be variable names, subscripts and all. */
const NAME_BUILTINS = new Set(["declare", "typeset", "local", "export", "readonly", "unset", "read", "printf", "mapfile", "readarray", "getopts", "wait", "test", "["]);
const DECLARATIONS = new Set(["declare", "typeset", "local", "export", "readonly"]);
/** A subscript bash evaluates to a constant: digits and operators, or `@` / `*`. */
const CONSTANT_INDEX = /^[\s\d+\-*/%()]*$|^[@*]$/;
/** A name subscripted: `a[…]`, `a[…]=value`. */
const SUBSCRIPTED = /^[A-Za-z_]\w*\[(.*)\](=.*)?$/s;

/** Arithmetic that names a variable (whose value bash evaluates in turn); numbers in any base are no names. */
function namesVariables(arithmetic: string): boolean {
	return /[A-Za-z_$]/.test(arithmetic.replace(/\b0[xX][0-9a-fA-F]+\b|\b\d+#[0-9A-Za-z@_]+/g, ""));
}

function hasDescendant(node: Node, test: (child: Node) => boolean): boolean {
	return node.children.some((child) => child !== null && (test(child) || hasDescendant(child, test)));
}

/** The node is evaluated by bash in a way that may run code it holds only as data. */
export function evaluatedNode(node: Node): boolean {
	switch (node.type) {
		case "arithmetic_expansion":
			return namesVariables(node.text.replace(/^\$(\(\(|\[)|(\)\)|\])$/g, ""));
		case "c_style_for_statement":
			return namesVariables(node.text.slice(0, node.text.indexOf("))") + 2));
		case "test_command": {
			const open = node.children[0]?.type;
			if (open === "((") return namesVariables(node.text.slice(2, -2));
			return hasDescendant(node, (child) => child.type === "test_operator" && EVALUATING_TESTS.has(child.text));
		}
		case "subscript": {
			const index = node.childForFieldName("index");
			return index !== null && !CONSTANT_INDEX.test(index.text);
		}
		case "expansion":
			return evaluatedExpansion(node);
		default:
			return false;
	}
}

/** `${x@P}`, `${!x}` (not `${!prefix*}` or `${!a[@]}`), and a substring `${x:off:len}` whose bounds name variables. */
function evaluatedExpansion(node: Node): boolean {
	const text = node.text;
	if (/@P\}$/.test(text)) return true;
	if (text.startsWith("${!") && !/^\$\{!\w+(\*|@|\[[@*]\])\}$/.test(text)) return true;
	const tokens = node.children.map((child) => child?.type);
	const colon = tokens.indexOf(":");
	return colon !== -1 && namesVariables(node.children.slice(colon + 1, -1).map((child) => child?.text ?? "").join(""));
}

/** The command as written when its arguments make bash evaluate code (`let`, `declare -i`, `printf -v 'a[$(…)]'`, `test -v`), else undefined. */
export function evaluatedArguments(words: readonly ShellWord[]): string | undefined {
	const name = commandName(words);
	if (name === undefined || words.length < 2) return undefined;
	const text = words.map((word) => word.text).join(" ");
	if (name === "let") return text;
	if (!NAME_BUILTINS.has(name)) return undefined;
	for (const word of words.slice(1)) {
		const value = word.literal ?? word.text;
		if (DECLARATIONS.has(name) && /^[-+][A-Za-z]*[in]/.test(value)) return text;
		if ((name === "test" || name === "[") && (value === "-v" || value === "-R")) return text;
		const subscript = SUBSCRIPTED.exec(value);
		if (subscript && !CONSTANT_INDEX.test(subscript[1])) return text;
	}
	return undefined;
}
